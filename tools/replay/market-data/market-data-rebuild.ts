import { type Markets, Topics } from '@exchange/contracts';
import {
  historyBatchOf,
  loadStoredPartitions,
  type MarketChange,
  marketDataSchema,
  MarketFold,
  marketSymbolsOf,
  MarketHistoryStore,
  marketStateHash,
  openMarketDataSource,
  parseKlineRetention,
  parseOrderEvent,
  takeCut,
} from '@exchange/market-data';
import { type IncomingRecord, partitionForKey } from '@exchange/messaging';
import { openDataSource } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { Progress } from '../progress';
import type { Check, ReplayContext, ReplayOptions, ReplayResult, ReplayTarget } from '../replay-target';
import { prepareTarget, switchSchemas, withDatabase } from '../schema-target';
import { cutHash, type HistoryDigest, historyDigest } from './market-history-digest';

const journal = Topics.orderEvents.name;

/**
 * Market data's history (trades, candles, book cuts, the writer's checkpoints) is the fold of
 * order.events (ARCHITECTURE rule 1). The rebuild folds each partition from offset 0 up to the
 * checkpoint the live history writer has stored, with the service's own parser, fold and batch
 * building, into a fresh schema through the store's own commitBatch; then it compares the tables
 * the events decide, the books of the live cuts, and the fold a replica would start from.
 */
export const marketDataReplay: ReplayTarget = {
  service: 'market-data',
  journal: `${journal} → a fresh PostgreSQL schema (default <prefix>market_data_rebuilt)`,
  rebuild: async (ctx, options) => withDatabase(ctx, (database) => rebuild(ctx, options, database.url)),
  switchTo: async (ctx, result) => withDatabase(ctx, (database) => switchMarketData(ctx, result, database.url)),
};

async function rebuild(ctx: ReplayContext, options: ReplayOptions, url: string): Promise<ReplayResult> {
  const live = marketDataSchema(ctx.config);
  const target = options.into ?? `${live}_rebuilt`;
  if (target === live) throw new Error(`--into ${target} is the live schema`);
  const partitions = await ctx.log.partitionCount(journal);
  const liveSource = await openDataSource({ url, schema: live, entities: [], migrations: [], readOnly: true });
  try {
    // The position to rebuild up to, and what the live schema held there, in one snapshot: a
    // writer still running moves on without tearing the comparison.
    const liveDigest = await historyDigest(liveSource, live, partitions, {
      symbols: marketSymbolsOf(ctx.markets).map((m) => m.symbol),
      intervals: parseKlineRetention(ctx.config.MARKET_DATA_KLINE_RETENTION_DAYS),
      tradeMs: ctx.config.MARKET_DATA_TRADE_RETENTION_MS,
    });
    await prepareTarget(url, target, options.into === undefined);
    const rebuilt = await openMarketDataSource(url, target);
    try {
      const fold = foldFor(ctx.markets, partitions);
      const { events, seconds, cutChecks } = await foldInto(
        ctx,
        fold,
        new MarketHistoryStore(rebuilt, target),
        liveDigest,
      );
      const rebuiltDigest = await historyDigest(rebuilt, target, partitions, { floors: liveDigest.floors });
      const checks: Check[] = [
        {
          name: 'state hash',
          ok: rebuiltDigest.hash === liveDigest.hash,
          detail: `rebuilt ${rebuiltDigest.hash} live ${liveDigest.hash}`,
        },
        await foldCheck(ctx, fold, liveSource, live, liveDigest.checkpoints),
        ...cutChecks,
      ];
      for (const table of Object.keys(liveDigest.rows) as (keyof HistoryDigest['rows'])[]) {
        const [r, l] = [rebuiltDigest.rows[table], liveDigest.rows[table]];
        checks.push({ name: `rows of ${table}`, ok: r === l, detail: `rebuilt ${r} live ${l}` });
      }
      return { events, seconds, checks, location: target, position: { [journal]: liveDigest.checkpoints } };
    } finally {
      await rebuilt.destroy();
    }
  } finally {
    await liveSource.destroy();
  }
}

function foldFor(markets: Markets, partitions: number): MarketFold {
  return new MarketFold(marketSymbolsOf(markets), (symbol) => partitionForKey(symbol, partitions));
}

/** Changes folded per transaction: large enough that commits do not bound the rate (the writer flushes at 50,000). */
const WRITE_BATCH = 100_000;

/**
 * Folds each partition from 0 to the live checkpoint and stores it as the history writer does
 * (historyBatchOf, commitBatch), one transaction per WRITE_BATCH changes, the last one with the
 * partition's book cut at the checkpoint, so a replica can start from the rebuilt schema. Where
 * the fold passes the offset of a live cut, it compares the cut it would take there. Records are
 * not deduplicated by event id: the fold skips repeated book updates and trades by their ids, and
 * the live writer folds every record, so the rebuild does too.
 */
async function foldInto(
  ctx: ReplayContext,
  fold: MarketFold,
  store: MarketHistoryStore,
  live: HistoryDigest,
): Promise<{ events: number; seconds: number; cutChecks: Check[] }> {
  const progress = new Progress(
    'market-data',
    live.checkpoints.reduce((a, b) => a + b, 0),
    ctx.progress,
  );
  const cutChecks: Check[] = [];
  for (let p = 0; p < live.checkpoints.length; p++) {
    const end = live.checkpoints[p]!;
    if (end === 0) continue;
    const liveCut = live.cuts.get(p);
    let committed = 0;
    let folded = 0;
    let pending: MarketChange[] = [];
    const flush = async (withCut: boolean): Promise<void> => {
      const { batch } = historyBatchOf(fold, p, pending, committed, folded);
      if (withCut) batch.cut = takeCut(fold, p, folded);
      // Before folding on: the batch holds the fold's own candles, which the next trades change.
      await store.commitBatch(batch);
      committed = folded;
      pending = [];
    };
    const onRecords = async (records: IncomingRecord[]): Promise<void> => {
      for (const record of records) {
        const event = parseOrderEvent(record);
        if (event) fold.apply(p, event, pending);
        folded = record.offset + 1;
        if (liveCut?.offset === folded) cutChecks.push(cutCheck(fold, p, liveCut.offset, cutHash(liveCut)));
        if (pending.length >= WRITE_BATCH) await flush(false);
      }
      progress.advance(records.length);
    };
    await ctx.log.read(journal, p, 0, onRecords, end);
    await flush(true);
    if (liveCut && !cutChecks.some((c) => c.name === cutName(p)))
      cutChecks.push({
        name: cutName(p),
        ok: false,
        detail: `the live cut's offset ${liveCut.offset} is no record's end below the checkpoint ${end}`,
      });
  }
  return { ...progress.finish(), cutChecks };
}

const cutName = (partition: number): string => `book cut ${journal}/${partition}`;

function cutCheck(fold: MarketFold, partition: number, offset: number, liveHash: string): Check {
  const rebuilt = cutHash(takeCut(fold, partition, offset));
  return {
    name: cutName(partition),
    ok: rebuilt === liveHash,
    detail: `at ${offset}: rebuilt ${rebuilt} live ${liveHash}`,
  };
}

/**
 * The fold a replica starts from the live schema (its cuts and history, then the log read up to
 * the checkpoint) against the rebuilt fold. A writer that stored more since the snapshot moves
 * the live checkpoints on: the rebuilt fold then reads on to them too (without storing).
 */
async function foldCheck(
  ctx: ReplayContext,
  rebuilt: MarketFold,
  liveSource: DataSource,
  live: string,
  position: number[],
): Promise<Check> {
  const started = foldFor(ctx.markets, position.length);
  const starts = await loadStoredPartitions(
    started,
    new MarketHistoryStore(liveSource, live),
    position.map((_, p) => p),
  );
  const apply = (fold: MarketFold, p: number) => async (records: IncomingRecord[]) => {
    for (const record of records) {
      const event = parseOrderEvent(record);
      if (event) fold.apply(p, event);
    }
  };
  for (const [p, start] of starts) {
    await ctx.log.read(journal, p, start.from, apply(started, p), start.checkpoint);
    if (start.checkpoint > position[p]!)
      await ctx.log.read(journal, p, position[p]!, apply(rebuilt, p), start.checkpoint);
  }
  const [r, l] = [marketStateHash(rebuilt), marketStateHash(started)];
  return { name: 'fold hash', ok: r === l, detail: `rebuilt ${r} live-start ${l}` };
}

/**
 * Makes the rebuilt schema market data's. Nothing is copied: the rebuilt schema holds the same
 * history up to the same checkpoints, and a book cut at them. Refused when the live writer has
 * stored past the rebuilt position since (checked while its checkpoints table is held, so it
 * cannot commit meanwhile): the rebuilt copy would lack that history. What order.events holds
 * past the checkpoints is no reason to refuse: a writer reads it from the checkpoint, as on any start.
 */
async function switchMarketData(ctx: ReplayContext, result: ReplayResult, url: string): Promise<string> {
  const live = marketDataSchema(ctx.config);
  const position = result.position[journal]!;
  return switchSchemas(url, live, result.location, async (m) => {
    await m.query(`LOCK TABLE "${live}".checkpoints IN ACCESS EXCLUSIVE MODE`);
    const stored: { partition: number; next_offset: string }[] = await m.query(
      `SELECT partition, next_offset FROM "${live}".checkpoints`,
    );
    const moved = stored.filter((r) => Number(r.next_offset) !== (position[r.partition] ?? 0));
    if (moved.length > 0)
      throw new Error(
        `the history writer stored ${journal} past the rebuilt position (partition ${moved.map((r) => r.partition).join(', ')}); stop market-data and rebuild again`,
      );
  });
}
