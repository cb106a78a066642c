import { Module } from '@nestjs/common';
import { type Markets, Topics } from '@exchange/contracts';
import { type EventLog, partitionForKey } from '@exchange/messaging';
import { EVENT_LOG, MARKETS } from '@exchange/platform';
import { MarketFold } from './domain';
import { PublicRoutesRegistrar } from './http/public-routes.registrar';
import { GeneralController } from './public/general.controller';
import { MarketReader } from './reading/market-reader';
import { FromTheBeginning, MarketStartState } from './reading/market-start-state';
import { MarketAnswers } from './views/market-answers';

const foldProvider = {
  provide: MarketFold,
  inject: [MARKETS, EVENT_LOG],
  useFactory: async (markets: Markets, log: EventLog) => {
    const partitions = await log.partitionCount(Topics.orderEvents.name);
    return new MarketFold(markets.symbols, (symbol) => partitionForKey(symbol, partitions));
  },
};

const answersProvider = {
  provide: MarketAnswers,
  inject: [MarketFold, MARKETS],
  useFactory: (fold: MarketFold, markets: Markets) => new MarketAnswers(fold, markets),
};

/** Public market data: the read models of the order events and the endpoints that serve them. */
@Module({
  controllers: [GeneralController],
  providers: [foldProvider, { provide: MarketStartState, useClass: FromTheBeginning }, MarketReader, answersProvider, PublicRoutesRegistrar],
})
export class MarketDataModule {}
