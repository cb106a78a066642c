import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness';

export const HEALTH_LIVE_PATH = '/health/live';
export const HEALTH_READY_PATH = '/health/ready';

@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get(HEALTH_LIVE_PATH)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get(HEALTH_READY_PATH)
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.readiness.report();
    void reply.status(report.ready ? 200 : 503).send({ status: report.ready ? 'ready' : 'starting', checks: report.checks });
  }
}
