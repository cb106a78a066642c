import { Module } from '@nestjs/common';

/** Signed private REST and the operator API: validation, signatures, rate limits, error mapping. */
@Module({})
export class ApiGatewayModule {}
