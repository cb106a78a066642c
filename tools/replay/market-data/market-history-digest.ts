import { createHash, type Hash } from 'node:crypto';
import { klineFloors, type KlineRetention, type PartitionCut, tradeFloors } from '@exchange/market-data';
import type { DataSource, QueryRunner } from 'typeorm';

/** The history tables whose rows the events alone decide, with the key they are hashed in order of. */
const decidedTables = [
  {
    table: 'trades',
    key: ['symbol', 'trade_id'],
    columns: ['symbol', 'trade_id', 'time', 'price::text', 'qty::text', 'is_buyer_maker'],
  },
  {
    table: 'klines',
    key: ['symbol', 'interval', 'open_time'],
    columns: [
      'symbol',
      'interval',
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
    ],
  },
  { table: 'checkpoints', key: ['partition'], columns: ['partition', 'next_offset', 'event_time'] },
] as const;

export type DecidedTable = (typeof decidedTables)[number]['table'];

/** Rows hashed per query: keyset pages keep memory flat on a long history. */
const PAGE = 20_000;

/**
 * One schema's market history as of one instant: a sha256 over the rows the events decide
 * (trades, candles, checkpoints) and retention keeps, their counts, the checkpoints by partition
 * and the stored book cuts. Book cuts are not in the hash: the writer takes them on a wall-clock
 * timer, so the live and the rebuilt schema hold cuts at different offsets; they are compared by
 * what they hold.
 */
export interface HistoryDigest {
  hash: string;
  rows: Record<DecidedTable, number>;
  /** next_offset by partition (0 where the writer stored nothing yet). */
  checkpoints: number[];
  cuts: Map<number, PartitionCut>;
  /** Candles and trades below these were not compared (a prune may have deleted them in the live schema). */
  floors: RetentionFloors;
}

export interface RetentionFloors {
  klines: KlineFloor[];
  trades: TradeFloor[];
}

/** Below `floor`, a (symbol, interval)'s candles are past retention and may be gone from the live schema. */
export interface KlineFloor {
  symbol: string;
  interval: string;
  floor: number;
}

/** A symbol's trades older than `before` and below trade id `tradeId` are past retention and may be gone from the live schema. */
export interface TradeFloor {
  symbol: string;
  before: number;
  tradeId: number;
}

/** The live service's retention settings: candles per interval, trades in ms (0 keeps them all). */
export interface LiveRetention {
  symbols: readonly string[];
  intervals: KlineRetention;
  tradeMs: number;
}

/**
 * The live schema's retention floors: what the history writer's prunes may have deleted lies
 * below them. Its prunes measure retention by the partition's event time, which never passes the
 * newest checkpoint's, and keep each series' newest MEMORY_DEPTH, a set that only moves up: floors
 * by that time and the newest rows now cover every prune so far.
 */
async function liveFloors(runner: QueryRunner, schema: string, retention: LiveRetention): Promise<RetentionFloors> {
  const floors: RetentionFloors = { klines: [], trades: [] };
  const [{ now }]: [{ now: string | null }] = await runner.query(
    `SELECT max(event_time) AS now FROM "${schema}".checkpoints`,
  );
  if (now === null || retention.symbols.length === 0) return floors;
  const intervals = [...retention.intervals.keys()];
  if (intervals.length > 0) {
    const rows: { symbol: string; interval: string; floor: string }[] = await runner.query(
      `WITH ${klineFloors(`"${schema}"`)} SELECT symbol, interval, floor FROM floors`,
      [retention.symbols, intervals, intervals.map((i) => Number(now) - retention.intervals.get(i)!)],
    );
    floors.klines = rows.map((r) => ({ symbol: r.symbol, interval: r.interval, floor: Number(r.floor) }));
  }
  if (retention.tradeMs > 0) {
    const rows: { symbol: string; floor: string }[] = await runner.query(
      `WITH ${tradeFloors(`"${schema}"`)} SELECT symbol, floor FROM floors`,
      [retention.symbols],
    );
    const before = Number(now) - retention.tradeMs;
    floors.trades = rows.map((r) => ({ symbol: r.symbol, before, tradeId: Number(r.floor) }));
  }
  return floors;
}

/** Reads the digest in one REPEATABLE READ snapshot, so a writer committing meanwhile cannot tear it. */
export async function historyDigest(
  dataSource: DataSource,
  schema: string,
  partitions: number,
  retention: LiveRetention | { floors: RetentionFloors },
): Promise<HistoryDigest> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction('REPEATABLE READ');
    const floors = 'floors' in retention ? retention.floors : await liveFloors(runner, schema, retention);
    const hash = createHash('sha256');
    const rows = {} as Record<DecidedTable, number>;
    for (const table of decidedTables) rows[table.table] = await hashTable(runner, schema, table, hash, floors);
    const checkpoints = new Array<number>(partitions).fill(0);
    for (const r of await runner.query(`SELECT partition, next_offset FROM "${schema}".checkpoints`))
      checkpoints[r.partition] = Number(r.next_offset);
    const cuts = new Map<number, PartitionCut>(
      (await runner.query(`SELECT partition, cut FROM "${schema}".book_cuts`)).map(
        (r: { partition: number; cut: PartitionCut }) => [r.partition, r.cut],
      ),
    );
    await runner.commitTransaction();
    return { hash: hash.digest('hex'), rows, checkpoints, cuts, floors };
  } finally {
    await runner.release();
  }
}

async function hashTable(
  runner: QueryRunner,
  schema: string,
  { table, key, columns }: (typeof decidedTables)[number],
  hash: Hash,
  floors: RetentionFloors,
): Promise<number> {
  const [kept, keptParams] = keptBy(table, floors);
  const keyList = key.join(', ');
  const after = `(${keyList}) > (${key.map((_, i) => `$${i + keptParams.length + 1}`).join(', ')})`;
  let last: unknown[] | undefined;
  let count = 0;
  for (;;) {
    const page: Record<string, unknown>[] = await runner.query(
      `SELECT ${key.map((k) => `${k} AS k_${k}`).join(', ')}, concat_ws('|', ${columns.join(', ')}) AS line FROM "${schema}".${table} t
       WHERE ${kept} ${last ? `AND ${after}` : ''} ORDER BY ${keyList} LIMIT ${PAGE}`,
      [...keptParams, ...(last ?? [])],
    );
    for (const row of page) hash.update(`${table}|${row.line as string}\n`);
    count += page.length;
    if (page.length < PAGE) return count;
    const end = page[page.length - 1]!;
    last = key.map((k) => end[`k_${k}`]);
  }
}

/** Rows below their floor are left out on both sides: the live schema may have pruned them. */
function keptBy(table: DecidedTable, { klines, trades }: RetentionFloors): [string, unknown[]] {
  if (table === 'klines')
    return [
      `NOT EXISTS (SELECT 1 FROM unnest($1::text[], $2::text[], $3::bigint[]) AS f(symbol, interval, floor)
         WHERE f.symbol = t.symbol AND f.interval = t.interval AND t.open_time < f.floor)`,
      [klines.map((f) => f.symbol), klines.map((f) => f.interval), klines.map((f) => f.floor)],
    ];
  if (table === 'trades')
    return [
      `NOT EXISTS (SELECT 1 FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS f(symbol, before, floor)
         WHERE f.symbol = t.symbol AND t.time < f.before AND t.trade_id < f.floor)`,
      [trades.map((f) => f.symbol), trades.map((f) => f.before), trades.map((f) => f.tradeId)],
    ];
  return ['true', []];
}

/** A cut as JSON with its keys in a fixed order: PostgreSQL's jsonb keeps its own order. */
export function cutHash(cut: PartitionCut): string {
  return createHash('sha256').update(canonicalJson(cut)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
