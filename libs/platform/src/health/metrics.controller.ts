import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Metrics } from '../metrics/metrics';

export const METRICS_PATH = '/metrics';

@ApiTags('operations: health')
@Controller()
export class MetricsController {
  constructor(@Inject(Metrics) private readonly metrics: Metrics) {}

  @Get(METRICS_PATH)
  @ApiOperation({ summary: 'Prometheus metrics of this process (text exposition format)' })
  async metricsText(@Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
