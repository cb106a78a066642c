import 'reflect-metadata';
import { type OrderEvent, Topics } from '@exchange/contracts';
import { marketDataSchema, MarketDataModule } from '@exchange/market-data';
import { ManualClock } from '@exchange/platform';
import { Client } from 'pg';
import { OrderEventFactory } from '../../../libs/market-data/src/testing/order-event-fixtures';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';
import type { Check, ReplayContext, ReplayResult } from '../replay-target';
import { marketDataReplay } from './market-data-rebuild';

const HOUR = 3_600_000;
const t0 = Date.UTC(2026, 2, 31, 23, 58, 0);
const topic = Topics.orderEvents.name;

/**
 * The market-data replay against a running market-data replica (its history writer storing into
 * PostgreSQL, on the embedded journal): order events on three symbols in three rounds, the book
 * cut stored in the middle one, so a start from the live store reads events after its cut again.
 */
describe('market-data replay', () => {
  const clock = new ManualClock(t0);
  const events = new OrderEventFactory();
  let exchange: TestExchange;
  let db: Client;
  let live: string;
  const progress: string[] = [];

  const ctx = (): ReplayContext => {
    const { config, eventLog, markets, logger } = exchange.infrastructure;
    return {
      config,
      log: eventLog,
      markets,
      logger,
      say: () => undefined,
      progress: { isTTY: false, write: (line: string) => progress.push(line) } as unknown as NodeJS.WriteStream,
    };
  };
  const rebuild = (into?: string): Promise<ReplayResult> =>
    marketDataReplay.rebuild(ctx(), { into, switch: false, force: false });
  const check = (result: ReplayResult, name: string): Check => {
    const found = result.checks.find((c) => c.name === name);
    if (!found) throw new Error(`no check ${name} in ${JSON.stringify(result.checks)}`);
    return found;
  };
  const hashes = (c: Check): string[] => [...c.detail.matchAll(/[0-9a-f]{64}/g)].map((m) => m[0]);

  /** Publishes the events (keyed by symbol, as the engine does) and waits until the live history writer has stored them. */
  async function publish(batch: OrderEvent[]): Promise<void> {
    const log = exchange.infrastructure.eventLog;
    await log.publish(batch.map((e) => ({ topic, key: e.payload.symbol, value: JSON.stringify(e) })));
    const ends = await log.endOffsets(topic);
    await waitFor(async () => {
      const { rows } = await db.query<{ partition: number; next_offset: string }>(
        `SELECT partition, next_offset FROM "${live}".checkpoints`,
      );
      return ends.every((end, p) => end === 0 || Number(rows.find((r) => r.partition === p)?.next_offset ?? 0) === end);
    }, 'the history writer to store order.events to its end');
  }

  /** Trades crossing minute, hour and month edges, book changes, a repeated trade (published at least once). */
  function round(from: number): OrderEvent[] {
    const out: OrderEvent[] = [];
    for (let i = 0; i < 8; i++) {
      const ts = from + i * 17_000;
      out.push(events.book('BTCUSDT', ts, [[String(60_000 - i), '0.5']], [[String(60_010 + i), '0.25']]));
      out.push(events.trade('BTCUSDT', ts + 1, String(60_005 + (i % 3)), '0.01', i % 2 ? 'SELL' : 'BUY'));
      out.push(events.trade('ETHUSDT', ts + 2, String(3_000 - i), '0.1'));
      out.push(events.book('ETHBTC', ts + 3, [['0.05', String(i + 1)]], []));
      out.push(events.trade('ETHBTC', ts + 4, '0.05001', '0.5', 'SELL'));
    }
    out.push(out.find((e) => e.type === 'TradeExecuted')!);
    return out;
  }

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, modules: [MarketDataModule] });
    live = marketDataSchema(exchange.infrastructure.config);
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    await publish(round(t0));
    // The writer's cut is due on its clock: stored with this round, then more events after it.
    clock.advance(60_000);
    await publish(round(t0 + HOUR));
    await publish([...round(t0 + 2 * HOUR), events.tick('BTCUSDT', t0 + 30 * HOUR)]);
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await exchange?.close();
  });

  it('rebuilds the history equal to the live one, and a start from the live store folds to the same state', async () => {
    const { rows: cuts } = await db.query<{ next_offset: string }>(`SELECT next_offset FROM "${live}".book_cuts`);
    const { rows: checkpoints } = await db.query<{ next_offset: string }>(
      `SELECT next_offset FROM "${live}".checkpoints`,
    );
    expect(Math.max(...cuts.map((c) => Number(c.next_offset)))).toBeLessThan(
      Math.max(...checkpoints.map((c) => Number(c.next_offset))),
    );

    const result = await rebuild();
    expect(result.location).toBe(`${live}_rebuilt`);
    expect(result.events).toBe(3 * 41 + 1);
    const failed = result.checks.filter((c) => !c.ok);
    expect(failed).toEqual([]);
    const [rebuilt, liveHash] = hashes(check(result, 'state hash'));
    expect(rebuilt).toBe(liveHash);
    expect(check(result, 'state hash').detail).toBe(`rebuilt ${rebuilt} live ${rebuilt}`);
    const [fold, start] = hashes(check(result, 'fold hash'));
    expect(fold).toBe(start);
    expect(check(result, 'fold hash').detail).toMatch(/^rebuilt [0-9a-f]{64} live-start [0-9a-f]{64}$/);
    // 8 trades per symbol and round, the repeated one stored once.
    expect(check(result, 'rows of trades').detail).toBe('rebuilt 72 live 72');
    expect(result.checks.filter((c) => c.name.startsWith('book cut')).length).toBeGreaterThan(0);
    expect(progress.join('')).toMatch(/market-data .* events\/s .* remaining {2}ETA/);
  }, 60_000);

  it('reports a MISMATCH when a live trade or candle was changed behind the writer', async () => {
    await db.query(`UPDATE "${live}".trades SET price = price + 1 WHERE symbol = 'ETHUSDT' AND trade_id = 3`);
    const tradeTampered = await rebuild();
    const [rebuilt, liveHash] = hashes(check(tradeTampered, 'state hash'));
    expect(check(tradeTampered, 'state hash').ok).toBe(false);
    expect(rebuilt).not.toBe(liveHash);
    await db.query(`UPDATE "${live}".trades SET price = price - 1 WHERE symbol = 'ETHUSDT' AND trade_id = 3`);
    expect(check(await rebuild(), 'state hash').ok).toBe(true);

    // The newest candle is also what a replica starts from: the fold started from the store differs too.
    await db.query(
      `UPDATE "${live}".klines SET volume = volume * 2 WHERE symbol = 'BTCUSDT' AND interval = '1d' AND open_time = (SELECT max(open_time) FROM "${live}".klines WHERE symbol = 'BTCUSDT' AND interval = '1d')`,
    );
    const klineTampered = await rebuild();
    expect(check(klineTampered, 'state hash').ok).toBe(false);
    expect(check(klineTampered, 'fold hash').ok).toBe(false);
    expect(check(klineTampered, 'rows of klines').ok).toBe(true);

    // A book cut is compared by what it holds at its offset.
    const { rows } = await db.query<{ partition: number }>(
      `UPDATE "${live}".book_cuts SET cut = jsonb_set(cut, '{clock,cutWindow}', '1') WHERE partition = (SELECT min(partition) FROM "${live}".book_cuts) RETURNING partition`,
    );
    const cutTampered = await rebuild();
    expect(check(cutTampered, `book cut order.events/${rows[0]!.partition}`).ok).toBe(false);
  }, 60_000);

  it('switches to the rebuilt schema, which the running writer goes on storing into; refuses once the writer stored past it', async () => {
    const result = await rebuild();
    expect(check(result, 'state hash').ok).toBe(false);
    const said = await marketDataReplay.switchTo!(ctx(), result);
    expect(said).toMatch(
      new RegExp(`^schema ${live}_rebuilt is now ${live}; the previous one is kept as ${live}_replaced_\\d{14}$`),
    );
    const after = await rebuild();
    expect(after.checks.filter((c) => !c.ok)).toEqual([]);

    await publish(round(t0 + 40 * HOUR));
    const behind = await rebuild();
    expect(behind.checks.filter((c) => !c.ok)).toEqual([]);
    await publish([
      events.tick('ETHBTC', t0 + 41 * HOUR),
      events.tick('BTCUSDT', t0 + 41 * HOUR),
      events.tick('ETHUSDT', t0 + 41 * HOUR),
    ]);
    await expect(marketDataReplay.switchTo!(ctx(), behind)).rejects.toThrow(
      /stored order\.events past the rebuilt position/,
    );
  }, 60_000);

  it('compares what trade retention keeps once the live writer pruned trades past it', async () => {
    // 1,200 BTCUSDT trades more than the 1-hour retention before the tick stored with the next cut.
    const from = t0 + 50 * HOUR;
    await publish(Array.from({ length: 1200 }, (_, i) => events.trade('BTCUSDT', from + i, '60000', '0.01')));
    clock.advance(60_000);
    await publish([events.tick('BTCUSDT', from + 2 * HOUR)]);
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${live}".trades WHERE symbol = 'BTCUSDT'`,
    );
    // 32 earlier trades and the 1,200: the prune kept the newest 1,000.
    expect(Number(rows[0]!.n)).toBe(1000);

    const result = await rebuild();
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    // ETHUSDT's and ETHBTC's 32 trades each, too few to prune.
    expect(check(result, 'rows of trades').detail).toBe('rebuilt 1064 live 1064');

    // A trade the retention keeps, changed or gone in the live schema, is a mismatch.
    await db.query(`UPDATE "${live}".trades SET qty = qty * 2 WHERE symbol = 'BTCUSDT' AND trade_id = 1200`);
    const changed = await rebuild();
    expect(check(changed, 'state hash').ok).toBe(false);
    expect(check(changed, 'rows of trades').ok).toBe(true);
    await db.query(`DELETE FROM "${live}".trades WHERE symbol = 'BTCUSDT' AND trade_id = 1200`);
    const missing = await rebuild();
    expect(check(missing, 'state hash').ok).toBe(false);
    expect(check(missing, 'rows of trades').ok).toBe(false);
  }, 60_000);
});
