import 'reflect-metadata';
import { Global, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { allTopics, Markets, type OrderCommand, Topics } from '@exchange/contracts';
import { EmbeddedEventLog, EventLogServer, type IncomingRecord } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, MARKETS } from '@exchange/platform';
import pino from 'pino';
import { SymbolEngines } from '../books/symbol-engines';
import { MatchingEngineModule } from '../matching-engine.module';
import { MATCHING_ENGINE_GROUP, type MatchingEngineSettings } from '../matching-engine.settings';

/** Two symbols with different units: BTCUSDT 0.01 × 0.00001, ETHBTC 0.00001 × 0.001. */
export const testMarkets = Markets.fromJson({
  version: 1,
  assets: [
    { asset: 'BTC', precision: 8 },
    { asset: 'ETH', precision: 8 },
    { asset: 'USDT', precision: 8 },
  ],
  symbols: [
    {
      symbol: 'BTCUSDT',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      status: 'TRADING',
      minPrice: '0.01',
      maxPrice: '10000000',
      tickSize: '0.01',
      minQty: '0.00001',
      maxQty: '1000',
      stepSize: '0.00001',
      minNotional: '5',
      makerFee: '0.001',
      takerFee: '0.001',
    },
    {
      symbol: 'ETHBTC',
      baseAsset: 'ETH',
      quoteAsset: 'BTC',
      status: 'TRADING',
      minPrice: '0.00001',
      maxPrice: '100',
      tickSize: '0.00001',
      minQty: '0.001',
      maxQty: '10000',
      stepSize: '0.001',
      minNotional: '0.0001',
      makerFee: '0.001',
      takerFee: '0.001',
    },
  ],
});

/** The engine alone, as a Nest microservice on an embedded log in `dir`: what a restart reopens. */
export interface RunningEngine {
  log: EmbeddedEventLog;
  app: INestMicroservice;
  engines: SymbolEngines;
  /** Log lines of the engine's logger, parsed. */
  logs: Record<string, unknown>[];
  /** Graceful stop: consumers, then the shutdown snapshot, then the log. */
  close(): Promise<void>;
  /** The log goes away under the engine (no shutdown snapshot can be written), then Nest stops. */
  crash(): Promise<void>;
}

export async function startEngine(dir: string, settings: Partial<MatchingEngineSettings> = {}): Promise<RunningEngine> {
  const log = await EmbeddedEventLog.open({ dir, fsync: 'never' });
  await log.createTopics(allTopics);
  const logs: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  );

  @Global()
  @Module({
    providers: [
      { provide: EVENT_LOG, useValue: log },
      { provide: MARKETS, useValue: testMarkets },
      { provide: LOGGER, useValue: logger },
    ],
    exports: [EVENT_LOG, MARKETS, LOGGER],
  })
  class TestPlatformModule {}

  @Module({ imports: [TestPlatformModule, MatchingEngineModule.withSettings(settings)] })
  class TestRootModule {}

  const app = await NestFactory.createMicroservice(TestRootModule, {
    strategy: new EventLogServer(log),
    logger: false,
  });
  await app.listen();
  return {
    log,
    app,
    engines: app.get(SymbolEngines),
    logs,
    close: async () => {
      await app.close();
      await log.close();
    },
    crash: async () => {
      await log.close();
      await app.close();
    },
  };
}

export async function publishCommands(log: EmbeddedEventLog, commands: readonly OrderCommand[]): Promise<void> {
  await log.publish(
    commands.map((c) => ({ topic: Topics.orderCommands.name, key: c.payload.symbol, value: JSON.stringify(c) })),
  );
}

/** True once the engine's group has committed every record of order.commands. */
export async function allCommandsCommitted(log: EmbeddedEventLog): Promise<boolean> {
  const [end, committed] = await Promise.all([
    log.endOffsets(Topics.orderCommands.name),
    log.committedOffsets(MATCHING_ENGINE_GROUP, Topics.orderCommands.name),
  ]);
  return end.every((offset, p) => committed[p] === offset);
}

/** Every record of a topic, partition by partition, in offset order. */
export async function readTopic(log: EmbeddedEventLog, topic: string): Promise<IncomingRecord[]> {
  const records: IncomingRecord[] = [];
  const partitions = await log.partitionCount(topic);
  for (let p = 0; p < partitions; p++) await log.read(topic, p, 0, async (batch) => void records.push(...batch));
  return records;
}

/** Every message of a topic, parsed, partition by partition. */
export async function readMessages<T>(log: EmbeddedEventLog, topic: string): Promise<T[]> {
  return (await readTopic(log, topic)).map((r) => JSON.parse(r.value) as T);
}
