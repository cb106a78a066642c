import { createHash, type Hash } from 'node:crypto';
import type { PartitionCut } from '@exchange/market-data';
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
 * (trades, candles, checkpoints), their counts, the checkpoints by partition and the stored book
 * cuts. Book cuts are not in the hash: the writer takes them on a wall-clock timer, so the live
 * and the rebuilt schema hold cuts at different offsets; they are compared by what they hold.
 */
export interface HistoryDigest {
  hash: string;
  rows: Record<DecidedTable, number>;
  /** next_offset by partition (0 where the writer stored nothing yet). */
  checkpoints: number[];
  cuts: Map<number, PartitionCut>;
}

/** Reads the digest in one REPEATABLE READ snapshot, so a writer committing meanwhile cannot tear it. */
export async function historyDigest(
  dataSource: DataSource,
  schema: string,
  partitions: number,
): Promise<HistoryDigest> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction('REPEATABLE READ');
    const hash = createHash('sha256');
    const rows = {} as Record<DecidedTable, number>;
    for (const table of decidedTables) rows[table.table] = await hashTable(runner, schema, table, hash);
    const checkpoints = new Array<number>(partitions).fill(0);
    for (const r of await runner.query(`SELECT partition, next_offset FROM "${schema}".checkpoints`))
      checkpoints[r.partition] = Number(r.next_offset);
    const cuts = new Map<number, PartitionCut>(
      (await runner.query(`SELECT partition, cut FROM "${schema}".book_cuts`)).map(
        (r: { partition: number; cut: PartitionCut }) => [r.partition, r.cut],
      ),
    );
    await runner.commitTransaction();
    return { hash: hash.digest('hex'), rows, checkpoints, cuts };
  } finally {
    await runner.release();
  }
}

async function hashTable(
  runner: QueryRunner,
  schema: string,
  { table, key, columns }: (typeof decidedTables)[number],
  hash: Hash,
): Promise<number> {
  const keyList = key.join(', ');
  const after = `(${keyList}) > (${key.map((_, i) => `$${i + 1}`).join(', ')})`;
  let last: unknown[] | undefined;
  let count = 0;
  for (;;) {
    const page: Record<string, unknown>[] = await runner.query(
      `SELECT ${key.map((k) => `${k} AS k_${k}`).join(', ')}, concat_ws('|', ${columns.join(', ')}) AS line FROM "${schema}".${table}
       ${last ? `WHERE ${after}` : ''} ORDER BY ${keyList} LIMIT ${PAGE}`,
      last ?? [],
    );
    for (const row of page) hash.update(`${table}|${row.line as string}\n`);
    count += page.length;
    if (page.length < PAGE) return count;
    const end = page[page.length - 1]!;
    last = key.map((k) => end[`k_${k}`]);
  }
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
