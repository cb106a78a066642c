import { Controller, Inject } from '@nestjs/common';
import {
  HeaderNames,
  LEDGER_PROJECTION_GROUP,
  type LedgerJournalEvent,
  parseJournalRecord,
  Topics,
} from '@exchange/contracts';
import { ConsumeBatches, decodeRecord, type IncomingBatch, type IncomingRecord } from '@exchange/messaging';
import { LOGGER, type Logger, Metrics } from '@exchange/platform';
import type { Histogram } from 'prom-client';
import type { DataSource, QueryRunner } from 'typeorm';
import { LEDGER_DATA_SOURCE, LEDGER_PARTITION_OF, LEDGER_SCHEMA } from '../processing/ledger.tokens';
import { projectionRows, writeProjection } from './ledger-projection';

/**
 * The ledger's query tables, a projection of ledger.events written off the order path by a
 * consumer group of its own (ARCHITECTURE rule 6): each batch's rows and the group's position
 * commit in one transaction, so a replayed batch is skipped, never written twice. The position
 * moves by compare-and-set: an instance that lost the partition cannot overwrite the progress of
 * the one that took it. Beside it, `checkpoints` records per ledger.commands partition the input
 * the tables reflect (from the events' x-ledger-input-next header).
 */
@Controller()
export class LedgerProjector {
  private readonly positions = new Map<number, number>();
  private readonly commitSeconds: Histogram<string>;

  constructor(
    @Inject(LEDGER_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(LEDGER_SCHEMA) private readonly schema: string,
    @Inject(LEDGER_PARTITION_OF) private readonly partitionOf: (userId: string) => number,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.commitSeconds = metrics.histogram(
      'ledger_projection_commit_seconds',
      'One PostgreSQL transaction per projected batch of ledger.events',
      [],
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    );
  }

  @ConsumeBatches({ topic: Topics.ledgerEvents.name, groupId: LEDGER_PROJECTION_GROUP, fromBeginning: true })
  async onEvents(batch: IncomingBatch): Promise<void> {
    const stop = this.commitSeconds.startTimer();
    try {
      await this.dataSource.transaction(async (manager) => {
        const runner = manager.queryRunner!;
        const position = this.positions.get(batch.partition) ?? (await this.readPosition(runner, batch.partition));
        const fresh = batch.records.filter((r) => r.offset >= position);
        if (fresh.length === 0) return;
        const events = await this.unseen(runner, this.parse(fresh));
        await writeProjection(runner, this.schema, projectionRows(events, this.partitionOf));
        await this.advance(runner, batch, position, inputNextOf(fresh));
      });
    } catch (error) {
      this.positions.delete(batch.partition);
      this.logger.error(
        { err: error, partition: batch.partition, offset: batch.records[0]?.offset },
        'ledger projection: batch failed; retried after a back-off',
      );
      throw error;
    }
    this.positions.set(batch.partition, batch.nextOffset);
    stop();
  }

  private async readPosition(runner: QueryRunner, partition: number): Promise<number> {
    const [row] = await runner.query(
      `SELECT next_offset FROM "${this.schema}".projection_checkpoints WHERE topic = $1 AND partition = $2`,
      [Topics.ledgerEvents.name, partition],
    );
    return row ? Number(row.next_offset) : 0;
  }

  private async advance(
    runner: QueryRunner,
    batch: IncomingBatch,
    expected: number,
    inputNext: number | undefined,
  ): Promise<void> {
    const s = `"${this.schema}"`;
    const moved = await runner.query(
      `INSERT INTO ${s}.projection_checkpoints (topic, partition, next_offset) VALUES ($1, $2, $4)
       ON CONFLICT (topic, partition) DO UPDATE SET next_offset = $4 WHERE projection_checkpoints.next_offset = $3 RETURNING next_offset`,
      [batch.topic, batch.partition, expected, batch.nextOffset],
    );
    if (moved.length === 0)
      throw new Error(`ledger projection: the position of ${batch.topic}/${batch.partition} is not at ${expected}`);
    if (inputNext === undefined) return;
    await runner.query(
      `INSERT INTO ${s}.checkpoints (topic, partition, next_offset) VALUES ($1, $2, $3)
       ON CONFLICT (topic, partition) DO UPDATE SET next_offset = GREATEST(checkpoints.next_offset, EXCLUDED.next_offset)`,
      [Topics.ledgerCommands.name, batch.partition, inputNext],
    );
  }

  /**
   * Drops events the tables already hold, by per-user sequence: what a torn Kafka transaction or
   * the outbox relay of earlier versions (at least once) published twice. Applying an old event
   * again after a newer one would set a balance back.
   */
  private async unseen(runner: QueryRunner, events: LedgerJournalEvent[]): Promise<LedgerJournalEvent[]> {
    const userIds = [...new Set(events.map((e) => e.payload.userId))].filter((id) => /^\d{1,18}$/.test(id));
    const rows: { user_id: string; seq: number }[] = await runner.query(
      `SELECT user_id, seq FROM "${this.schema}".users WHERE user_id = ANY($1::bigint[])`,
      [userIds],
    );
    const seqOf = new Map(rows.map((r) => [String(r.user_id), Number(r.seq)]));
    return events.filter((e) => {
      const seen = seqOf.get(e.payload.userId);
      if (seen === undefined) return true;
      if (e.payload.seq <= seen) return false;
      seqOf.set(e.payload.userId, e.payload.seq);
      return true;
    });
  }

  /** The journal was checked where it was written (the ledger validated each command); an unreadable record is logged and left out. */
  private parse(records: IncomingRecord[]): LedgerJournalEvent[] {
    const events: LedgerJournalEvent[] = [];
    for (const record of records) {
      const event = decodeRecord(record, parseJournalRecord);
      if (event) events.push(event);
      else
        this.logger.error(
          { partition: record.partition, offset: record.offset },
          'ledger projection: an unreadable ledger.events record was left out',
        );
    }
    return events;
  }
}

function inputNextOf(records: readonly IncomingRecord[]): number | undefined {
  let max: number | undefined;
  for (const r of records) {
    const value = Number(r.headers[HeaderNames.ledgerInputNext]);
    if (Number.isFinite(value) && (max === undefined || value > max)) max = value;
  }
  return max;
}
