import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness';

export const HEALTH_LIVE_PATH = '/health/live';
export const HEALTH_READY_PATH = '/health/ready';

@ApiTags('operations: health')
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get(HEALTH_LIVE_PATH)
  @ApiOperation({ summary: 'Liveness: the process answers' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get(HEALTH_READY_PATH)
  @ApiOperation({ summary: 'Readiness: every registered check passes (for example, consumers caught up)' })
  @ApiResponse({ status: 503, description: 'Not ready yet; the body names the failing checks.' })
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.readiness.report();
    void reply
      .status(report.ready ? 200 : 503)
      .send({ status: report.ready ? 'ready' : 'starting', checks: report.checks });
  }
}
