import { Module } from '@nestjs/common';
import { GeneralController } from './public/general.controller';

/** Public market data: the read models of the order events and the endpoints that serve them. */
@Module({
  controllers: [GeneralController],
})
export class MarketDataModule {}
