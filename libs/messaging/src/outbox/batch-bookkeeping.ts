import type { QueryRunner } from 'typeorm';
import type { OutgoingRecord } from '../event-log.port';

/**
 * The bookkeeping a service that decides commands in PostgreSQL writes with each batch, in the
 * batch's own transaction (ARCHITECTURE rule 5): the ids it processed, the records it must send
 * (an outbox the relay publishes), and its input checkpoint, advanced by compare-and-set so an
 * instance that lost its partition can never overwrite the progress of the one that took it.
 * The tables are the same in every schema that uses it (see createBookkeepingTables).
 */
export interface BatchBookkeeping {
  topic: string;
  partition: number;
  /** The checkpoint this instance believes is current; the commit fails if another wrote since. */
  expectedOffset: number;
  nextOffset: number;
  processed: { commandId: string; offset: number }[];
  /** When the batch was decided: the processed ids' time, from which they expire. */
  decidedAt: number;
  /** Processed ids decided before this leave the table in the same transaction (the retry window). */
  forgetProcessedBefore: number;
  outbox: OutgoingRecord[];
}

export class CheckpointMoved extends Error {
  override name = 'CheckpointMoved';
}

export async function writeBookkeeping(runner: QueryRunner, schema: string, b: BatchBookkeeping): Promise<void> {
  const s = `"${schema}"`;
  const moved = await runner.query(
    `INSERT INTO ${s}.checkpoints (topic, partition, next_offset) VALUES ($1, $2, $4)
     ON CONFLICT (topic, partition) DO UPDATE SET next_offset = $4 WHERE checkpoints.next_offset = $3
     RETURNING next_offset`,
    [b.topic, b.partition, b.expectedOffset, b.nextOffset],
  );
  if (moved.length === 0)
    throw new CheckpointMoved(`${schema}: checkpoint of ${b.topic}/${b.partition} is not at ${b.expectedOffset}`);
  if (b.processed.length > 0) {
    await runner.query(
      `INSERT INTO ${s}.processed_commands (command_id, partition, input_offset, decided_at) SELECT c, $1, o, $4 FROM unnest($2::text[], $3::bigint[]) AS t(c, o) ON CONFLICT DO NOTHING`,
      [b.partition, b.processed.map((p) => p.commandId), b.processed.map((p) => p.offset), b.decidedAt],
    );
  }
  // An index range: nothing to do costs one probe, and each batch removes about what one batch
  // added a window ago, so the table holds the window rather than the history.
  await runner.query(`DELETE FROM ${s}.processed_commands WHERE partition = $1 AND decided_at < $2`, [
    b.partition,
    b.forgetProcessedBefore,
  ]);
  if (b.outbox.length > 0) {
    await runner.query(
      `INSERT INTO ${s}.outbox (topic, key, value, headers) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])`,
      [
        b.outbox.map((r) => r.topic),
        b.outbox.map((r) => r.key),
        b.outbox.map((r) => r.value),
        b.outbox.map((r) => JSON.stringify(r.headers ?? {})),
      ],
    );
  }
}

/** The input checkpoint of a partition (0 when it never committed). */
export async function readCheckpoint(
  runner: { query(sql: string, params: unknown[]): Promise<{ next_offset: string }[]> },
  schema: string,
  topic: string,
  partition: number,
): Promise<number> {
  const [row] = await runner.query(
    `SELECT next_offset FROM "${schema}".checkpoints WHERE topic = $1 AND partition = $2`,
    [topic, partition],
  );
  return row ? Number(row.next_offset) : 0;
}

/**
 * Processed ids carry the time they were decided, so they can expire after the retry window
 * (rows from before this column count as decided at 0: the first batch forgets them). The outbox
 * is vacuumed eagerly: every row is deleted minutes after it was written, and without it the
 * dead rows bloat the table far past what it ever holds live.
 */
export async function addProcessedCommandTimes(runner: QueryRunner, schema: string): Promise<void> {
  const s = `"${schema}"`;
  await runner.query(`ALTER TABLE ${s}.processed_commands ADD COLUMN decided_at bigint NOT NULL DEFAULT 0`);
  await runner.query(`CREATE INDEX processed_commands_expiry ON ${s}.processed_commands (partition, decided_at)`);
  await runner.query(
    `ALTER TABLE ${s}.outbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_cost_limit = 2000)`,
  );
}

export async function dropProcessedCommandTimes(runner: QueryRunner, schema: string): Promise<void> {
  const s = `"${schema}"`;
  await runner.query(
    `ALTER TABLE ${s}.outbox RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold, autovacuum_vacuum_cost_limit)`,
  );
  await runner.query(`DROP INDEX ${s}.processed_commands_expiry`);
  await runner.query(`ALTER TABLE ${s}.processed_commands DROP COLUMN decided_at`);
}

/** The tables writeBookkeeping and OutboxRelay use, for a service's first migration. */
export async function createBookkeepingTables(runner: QueryRunner, schema: string): Promise<void> {
  const s = `"${schema}"`;
  await runner.query(
    `CREATE TABLE ${s}.processed_commands (command_id text PRIMARY KEY, partition integer NOT NULL, input_offset bigint NOT NULL)`,
  );
  await runner.query(
    `CREATE TABLE ${s}.checkpoints (topic text NOT NULL, partition integer NOT NULL, next_offset bigint NOT NULL, PRIMARY KEY (topic, partition))`,
  );
  await runner.query(
    `CREATE TABLE ${s}.outbox (id bigserial PRIMARY KEY, topic text NOT NULL, key text NOT NULL, value text NOT NULL, headers jsonb NOT NULL)`,
  );
}
