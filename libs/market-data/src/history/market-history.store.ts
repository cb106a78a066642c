import type { DataSource, EntityManager } from 'typeorm';
import {
  type Kline,
  type KlineInterval,
  klineIntervals,
  type KlineQuery,
  type KlineRetention,
  MEMORY_DEPTH,
  type PartitionCut,
  type PublicTrade,
  type SymbolHistory,
  type SymbolMarket,
  firstTimeInWindow,
  toScaled,
} from '../domain';

export interface HistoryBatch {
  partition: number;
  /** The checkpoint this writer believes is current; the commit fails if another writer moved it. */
  expectedOffset: number;
  nextOffset: number;
  eventTime: number;
  trades: { market: SymbolMarket; trade: PublicTrade }[];
  klines: { market: SymbolMarket; interval: KlineInterval; kline: Kline }[];
  cut?: PartitionCut;
  /** Trades of these symbols older than `before` go, except each symbol's newest MEMORY_DEPTH (a start reads those). */
  prune?: { symbols: string[]; before: number };
}

/** What the store holds for one partition, read in one consistent snapshot. */
export interface StoredPartition {
  /** The history writer's checkpoint: trades and candles include every event below it. */
  checkpoint: number;
  cut?: PartitionCut;
  histories: Map<string, SymbolHistory>;
}

export class CheckpointMoved extends Error {
  override name = 'CheckpointMoved';
}

interface KlineRowDb {
  open_time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  quote_volume: string;
  trades: number;
  taker_buy_volume: string;
  taker_buy_quote_volume: string;
}

/** The candle columns, amounts as text (a cast keeps the column's name). */
const klineColumnsOf = (table: string): string =>
  [
    'open_time',
    'open::text',
    'high::text',
    'low::text',
    'close::text',
    'volume::text',
    'quote_volume::text',
    'trades',
    'taker_buy_volume::text',
    'taker_buy_quote_volume::text',
  ]
    .map((c) => `${table}.${c}`)
    .join(', ');

/**
 * Market data's PostgreSQL side: one transaction per history batch (trades inserted once,
 * candles upserted by symbol, interval and open time, the book cut when due, the checkpoint moved
 * by compare-and-set), and the consistent reads a replica starts from.
 */
export class MarketHistoryStore {
  private readonly s: string;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
  ) {
    this.s = `"${schema}"`;
  }

  async commitBatch(batch: HistoryBatch): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const moved = await manager.query(
        `INSERT INTO ${this.s}.checkpoints (partition, next_offset, event_time) VALUES ($1, $3, $4)
         ON CONFLICT (partition) DO UPDATE SET next_offset = $3, event_time = $4 WHERE checkpoints.next_offset = $2 RETURNING partition`,
        [batch.partition, batch.expectedOffset, batch.nextOffset, batch.eventTime],
      );
      if (moved.length === 0)
        throw new CheckpointMoved(
          `market-data: history checkpoint of partition ${batch.partition} is not at ${batch.expectedOffset}`,
        );
      await this.insertTrades(manager, batch.trades);
      if (batch.prune) await this.pruneTrades(manager, batch.prune);
      await this.upsertKlines(manager, batch.klines);
      if (batch.cut) {
        await manager.query(
          `INSERT INTO ${this.s}.book_cuts (partition, next_offset, cut) VALUES ($1, $2, $3)
           ON CONFLICT (partition) DO UPDATE SET next_offset = $2, cut = $3`,
          [batch.partition, batch.nextOffset, JSON.stringify(batch.cut)],
        );
      }
    });
  }

  /**
   * Every partition's checkpoint, cut and symbol histories as of one instant (REPEATABLE READ),
   * in five queries whatever the number of symbols: starts stay fast as markets are added.
   */
  async load(
    partitions: number[],
    symbolsOf: (partition: number) => readonly SymbolMarket[],
  ): Promise<Map<number, StoredPartition>> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      const checkpoints = new Map<number, { next_offset: string; event_time: string }>(
        (await runner.query(`SELECT partition, next_offset, event_time FROM ${this.s}.checkpoints`)).map(
          (r: { partition: number; next_offset: string; event_time: string }) => [r.partition, r],
        ),
      );
      const cuts = new Map<number, PartitionCut>(
        (await runner.query(`SELECT partition, cut FROM ${this.s}.book_cuts`)).map(
          (r: { partition: number; cut: PartitionCut }) => [r.partition, r.cut],
        ),
      );
      const markets = partitions.flatMap((p) =>
        symbolsOf(p).map((market) => ({
          market,
          since: firstTimeInWindow(Number(checkpoints.get(p)?.event_time ?? 0)),
        })),
      );
      const histories = await this.histories(runner.manager, markets);
      await runner.commitTransaction();
      const out = new Map<number, StoredPartition>();
      for (const partition of partitions) {
        const checkpoint = checkpoints.get(partition);
        const symbols = new Map(symbolsOf(partition).map((m) => [m.symbol, histories.get(m.symbol)!]));
        out.set(partition, {
          checkpoint: checkpoint ? Number(checkpoint.next_offset) : 0,
          cut: cuts.get(partition),
          histories: symbols,
        });
      }
      return out;
    } finally {
      await runner.release();
    }
  }

  /** Candles older than `before`, by the klines endpoint's rules (startTime: first `limit`; otherwise last `limit`). */
  async olderKlines(
    market: SymbolMarket,
    interval: KlineInterval,
    query: KlineQuery,
    before: number,
  ): Promise<Kline[]> {
    const ascending = query.startTime !== undefined;
    const rows: KlineRowDb[] = await this.dataSource.query(
      `SELECT ${klineColumnsOf('klines')} FROM ${this.s}.klines
       WHERE symbol = $1 AND interval = $2 AND open_time < $3 AND open_time >= $4 AND open_time <= $5
       ORDER BY open_time ${ascending ? 'ASC' : 'DESC'} LIMIT $6`,
      [market.symbol, interval, before, query.startTime ?? 0, query.endTime ?? Number.MAX_SAFE_INTEGER, query.limit],
    );
    const klines = rows.map((r) => toKline(market, r));
    return ascending ? klines : klines.reverse();
  }

  /** Recent trades, the 24 h window (1m candles from `since` on: at most 1,440 rows a symbol) and the newest candles of each symbol, by index lookups per symbol. */
  private async histories(
    manager: EntityManager,
    markets: { market: SymbolMarket; since: number }[],
  ): Promise<Map<string, SymbolHistory>> {
    const symbols = markets.map((m) => m.market.symbol);
    const tradeColumns = 't.trade_id, t.time, t.price::text AS price, t.qty::text AS qty, t.is_buyer_maker';
    const recent: (TradeRowDb & { symbol: string })[] = await manager.query(
      `SELECT s.symbol, ${tradeColumns} FROM unnest($1::text[]) AS s(symbol)
       CROSS JOIN LATERAL (SELECT * FROM ${this.s}.trades WHERE symbol = s.symbol ORDER BY trade_id DESC LIMIT $2) t ORDER BY s.symbol, t.trade_id`,
      [symbols, MEMORY_DEPTH],
    );
    const window: (KlineRowDb & { symbol: string })[] = await manager.query(
      `SELECT s.symbol, ${klineColumnsOf('k')} FROM unnest($1::text[], $2::bigint[]) AS s(symbol, since)
       JOIN ${this.s}.klines k ON k.symbol = s.symbol AND k.interval = '1m' AND k.open_time >= s.since ORDER BY s.symbol, k.open_time`,
      [symbols, markets.map((m) => m.since)],
    );
    const klines: (KlineRowDb & { symbol: string; interval: KlineInterval })[] = await manager.query(
      `SELECT s.symbol, i.interval, ${klineColumnsOf('k')}
       FROM unnest($1::text[]) AS s(symbol) CROSS JOIN unnest($2::text[]) AS i(interval)
       CROSS JOIN LATERAL (SELECT * FROM ${this.s}.klines WHERE symbol = s.symbol AND interval = i.interval ORDER BY open_time DESC LIMIT $3) k
       ORDER BY s.symbol, i.interval, k.open_time`,
      [symbols, [...klineIntervals], MEMORY_DEPTH + 1],
    );
    const out = new Map<string, SymbolHistory>();
    for (const { market } of markets) {
      const recentTrades = recent.filter((r) => r.symbol === market.symbol).map((r) => toTrade(market, r));
      const series = new Map<KlineInterval, { klines: Kline[]; holdsAll: boolean }>();
      for (const interval of klineIntervals) {
        const rows = klines.filter((r) => r.symbol === market.symbol && r.interval === interval);
        // Ascending rows: the oldest one is the 1001st newest, there only to say that older candles exist.
        series.set(interval, {
          klines: rows.slice(-MEMORY_DEPTH).map((r) => toKline(market, r)),
          holdsAll: rows.length <= MEMORY_DEPTH,
        });
      }
      out.set(market.symbol, {
        recentTrades,
        windowMinutes: window.filter((r) => r.symbol === market.symbol).map((r) => toKline(market, r)),
        klines: series,
        lastTradeId: recentTrades[recentTrades.length - 1]?.tradeId ?? 0,
      });
    }
    return out;
  }

  /**
   * Deletes, for each symbol and interval of `retention`, candles opened before `now` minus its
   * retention, never one of the newest MEMORY_DEPTH (a start reads those, so a replica started
   * now serves what a long-running one does), at most `rows` per symbol and interval per
   * statement and `statements` statements: each is short, and a backlog (retention set on a long
   * history) goes over several calls. Returns the rows deleted. The candles a writer upserts are
   * the newest ones, so this may run beside it.
   */
  async pruneKlines(
    symbols: readonly string[],
    retention: KlineRetention,
    now: number,
    budget: { rows: number; statements: number },
  ): Promise<number> {
    const intervals = [...retention.keys()];
    if (symbols.length === 0 || intervals.length === 0) return 0;
    const before = intervals.map((i) => now - retention.get(i)!);
    let deleted = 0;
    for (let i = 0; i < budget.statements; i++) {
      const [, count]: [unknown, number] = await this.dataSource.query(
        `WITH ${klineFloors(this.s)},
         doomed AS (SELECT k.symbol, k.interval, k.open_time FROM floors f CROSS JOIN LATERAL
           (SELECT symbol, interval, open_time FROM ${this.s}.klines WHERE symbol = f.symbol AND interval = f.interval AND open_time < f.floor ORDER BY open_time LIMIT $4) k)
         DELETE FROM ${this.s}.klines k USING doomed d WHERE k.symbol = d.symbol AND k.interval = d.interval AND k.open_time = d.open_time`,
        [symbols, intervals, before, budget.rows],
      );
      deleted += count;
      if (count < budget.rows) break;
    }
    return deleted;
  }

  /** Trades past retention, never one of a symbol's newest MEMORY_DEPTH: a quiet symbol keeps its last price and trades. */
  private async pruneTrades(manager: EntityManager, prune: { symbols: string[]; before: number }): Promise<void> {
    await manager.query(
      `WITH ${tradeFloors(this.s)}
       DELETE FROM ${this.s}.trades t USING floors f WHERE t.symbol = f.symbol AND t.time < $2 AND t.trade_id < f.floor`,
      [prune.symbols, prune.before],
    );
  }

  private async insertTrades(manager: EntityManager, trades: HistoryBatch['trades']): Promise<void> {
    if (trades.length === 0) return;
    await manager.query(
      `INSERT INTO ${this.s}.trades (symbol, trade_id, time, price, qty, is_buyer_maker)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::numeric[], $5::numeric[], $6::boolean[]) ON CONFLICT DO NOTHING`,
      [
        trades.map((t) => t.market.symbol),
        trades.map((t) => t.trade.tradeId),
        trades.map((t) => t.trade.time),
        trades.map((t) => t.market.scale.formatPrice(t.trade.price)),
        trades.map((t) => t.market.scale.formatQty(t.trade.qty)),
        trades.map((t) => t.trade.isBuyerMaker),
      ],
    );
  }

  private async upsertKlines(manager: EntityManager, klines: HistoryBatch['klines']): Promise<void> {
    if (klines.length === 0) return;
    const column = <T>(f: (k: HistoryBatch['klines'][number]) => T): T[] => klines.map(f);
    await manager.query(
      `INSERT INTO ${this.s}.klines (symbol, interval, open_time, open, high, low, close, volume, quote_volume, trades, taker_buy_volume, taker_buy_quote_volume)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[], $10::int[], $11::numeric[], $12::numeric[])
       ON CONFLICT (symbol, interval, open_time) DO UPDATE SET open = EXCLUDED.open, high = EXCLUDED.high, low = EXCLUDED.low, close = EXCLUDED.close,
         volume = EXCLUDED.volume, quote_volume = EXCLUDED.quote_volume, trades = EXCLUDED.trades,
         taker_buy_volume = EXCLUDED.taker_buy_volume, taker_buy_quote_volume = EXCLUDED.taker_buy_quote_volume`,
      [
        column((k) => k.market.symbol),
        column((k) => k.interval),
        column((k) => k.kline.openTime),
        column((k) => k.market.scale.formatPrice(k.kline.open)),
        column((k) => k.market.scale.formatPrice(k.kline.high)),
        column((k) => k.market.scale.formatPrice(k.kline.low)),
        column((k) => k.market.scale.formatPrice(k.kline.close)),
        column((k) => k.market.scale.formatQty(k.kline.volume)),
        column((k) => k.market.scale.formatQuote(k.kline.quoteVolume)),
        column((k) => k.kline.trades),
        column((k) => k.market.scale.formatQty(k.kline.takerBuyVolume)),
        column((k) => k.market.scale.formatQuote(k.kline.takerBuyQuoteVolume)),
      ],
    );
  }
}

/**
 * `floors(symbol, interval, floor)`: below `floor` a candle is past retention ($3, per interval
 * of $2, for the symbols $1) and not one of its series' newest MEMORY_DEPTH. A series holding
 * fewer has no row: nothing of it goes. Shared with the replay's digest, which leaves out of its
 * comparison what a prune may have deleted.
 */
export function klineFloors(schema: string): string {
  return `floors AS (SELECT s.symbol, r.interval, LEAST(r.before, n.open_time) AS floor
    FROM unnest($1::text[]) AS s(symbol) CROSS JOIN unnest($2::text[], $3::bigint[]) AS r(interval, before)
    CROSS JOIN LATERAL (SELECT open_time FROM ${schema}.klines WHERE symbol = s.symbol AND interval = r.interval ORDER BY open_time DESC OFFSET ${MEMORY_DEPTH - 1} LIMIT 1) n)`;
}

/**
 * `floors(symbol, floor)`: below trade id `floor` a trade of the symbols $1 is not one of its
 * symbol's newest MEMORY_DEPTH; a symbol holding fewer has no row. A trade below it and older than
 * the retention may be pruned. Shared with the replay's digest, as klineFloors is.
 */
export function tradeFloors(schema: string): string {
  return `floors AS (SELECT s.symbol, n.trade_id AS floor FROM unnest($1::text[]) AS s(symbol)
    CROSS JOIN LATERAL (SELECT trade_id FROM ${schema}.trades WHERE symbol = s.symbol ORDER BY trade_id DESC OFFSET ${MEMORY_DEPTH - 1} LIMIT 1) n)`;
}

interface TradeRowDb {
  trade_id: string;
  time: string;
  price: string;
  qty: string;
  is_buyer_maker: boolean;
}

function toTrade(market: SymbolMarket, r: TradeRowDb): PublicTrade {
  return {
    tradeId: Number(r.trade_id),
    time: Number(r.time),
    price: market.scale.price(r.price),
    qty: market.scale.qty(r.qty),
    isBuyerMaker: r.is_buyer_maker,
  };
}

function toKline(market: SymbolMarket, r: KlineRowDb): Kline {
  const { scale } = market;
  return {
    openTime: Number(r.open_time),
    open: scale.price(r.open),
    high: scale.price(r.high),
    low: scale.price(r.low),
    close: scale.price(r.close),
    volume: scale.qty(r.volume),
    quoteVolume: toScaled(r.quote_volume, scale.quoteDecimals),
    trades: r.trades,
    takerBuyVolume: scale.qty(r.taker_buy_volume),
    takerBuyQuoteVolume: toScaled(r.taker_buy_quote_volume, scale.quoteDecimals),
  };
}
