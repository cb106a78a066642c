import { Module } from '@nestjs/common';
import { type Markets, Topics } from '@exchange/contracts';
import { type EventLog, partitionForKey } from '@exchange/messaging';
import {
  CONFIG,
  type Config,
  DATABASE,
  dataSourceProviders,
  EVENT_LOG,
  MARKETS,
  type RunningDatabase,
} from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { ContractPriceBoard, MarketFold, marketSymbolsOf } from './domain';
import { HistoryWriter } from './history/history-writer.processor';
import { MarketHistoryStore } from './history/market-history.store';
import { marketDataSchema, openMarketDataSource } from './history/open-market-data-source';
import { PublicRoutesRegistrar } from './http/public-routes.registrar';
import { MARKET_DATA_SETTINGS, marketDataSettings } from './market-data.settings';
import { GeneralController } from './public/general.controller';
import { ContractPriceDecider } from './prices/contract-price-decider';
import { MarketReader } from './reading/market-reader';
import { MarketStartState, StoredStartState } from './reading/market-start-state';
import { PublicStreamGateway } from './streams/public-stream.gateway';
import { MarketAnswers } from './views/market-answers';

const MARKET_DATA_SOURCE = Symbol('MARKET_DATA_SOURCE');
const MARKET_DATA_SCHEMA = Symbol('MARKET_DATA_SCHEMA');
const ORDER_EVENT_PARTITIONS = Symbol('ORDER_EVENT_PARTITIONS');

/** Public market data: the read models of the order events, their history, and the endpoints that serve them. */
@Module({
  controllers: [GeneralController],
  providers: [
    { provide: MARKET_DATA_SETTINGS, inject: [CONFIG], useFactory: marketDataSettings },
    { provide: MARKET_DATA_SCHEMA, inject: [CONFIG], useFactory: (config: Config) => marketDataSchema(config) },
    ...dataSourceProviders(
      MARKET_DATA_SOURCE,
      [DATABASE, MARKET_DATA_SCHEMA],
      (database: RunningDatabase, schema: string) => openMarketDataSource(database.url, schema),
    ),
    {
      provide: MarketHistoryStore,
      inject: [MARKET_DATA_SOURCE, MARKET_DATA_SCHEMA],
      useFactory: (dataSource: DataSource, schema: string) => new MarketHistoryStore(dataSource, schema),
    },
    {
      provide: ORDER_EVENT_PARTITIONS,
      inject: [EVENT_LOG],
      useFactory: (log: EventLog) => log.partitionCount(Topics.orderEvents.name),
    },
    {
      provide: MarketFold,
      inject: [MARKETS, ORDER_EVENT_PARTITIONS],
      useFactory: (markets: Markets, partitions: number) =>
        new MarketFold(marketSymbolsOf(markets), (symbol) => partitionForKey(symbol, partitions)),
    },
    {
      provide: MarketStartState,
      inject: [MarketHistoryStore, ORDER_EVENT_PARTITIONS],
      useFactory: (store: MarketHistoryStore, partitions: number) => new StoredStartState(store, partitions),
    },
    MarketReader,
    HistoryWriter,
    { provide: ContractPriceBoard, useFactory: () => new ContractPriceBoard() },
    ContractPriceDecider,
    {
      provide: MarketAnswers,
      inject: [MarketFold, MARKETS, MarketHistoryStore, ContractPriceBoard, CONFIG],
      useFactory: (
        fold: MarketFold,
        markets: Markets,
        store: MarketHistoryStore,
        board: ContractPriceBoard,
        config: Config,
      ) =>
        new MarketAnswers(
          fold,
          markets,
          (symbol, interval, query, before) => store.olderKlines(fold.symbols.get(symbol)!, interval, query, before),
          board,
          config.MARKET_DATA_ANSWER_CACHE_BYTES,
        ),
    },
    PublicRoutesRegistrar,
    PublicStreamGateway,
  ],
})
export class MarketDataModule {}
