import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';

@Global()
@Module({
  controllers: [HealthController],
  providers: [Readiness],
  exports: [Readiness],
})
export class HealthModule {}
