import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type LedgerJournalEvent, parseLedgerEvent, Topics } from '@exchange/contracts';
import { type Consumer, decodeOnce, type EventLog, type IncomingRecord } from '@exchange/messaging';
import type { Logger } from '@exchange/platform';

/**
 * Every ledger event from the instant this replica started, to one handler, in each partition's
 * order. Every replica must see every event, so each reads in a consumer group of its own. A
 * fresh group starts at the end as of its join, which Kafka settles a moment after start: the end
 * offsets are taken first, and the records between them and a partition's first delivered batch
 * are read before that batch, so nothing published after the start is missed. Later batches
 * continue the group's own position: a gap between them is Kafka's transaction markers (one after
 * every ledger step), not records, and reading it outside the group would cost a throw-away
 * consumer group per batch (a join, a fetch and a leave: it was most of this replica's requests
 * to the broker under load).
 */
export class LedgerEventFeed {
  private consumer: Consumer | undefined;
  private readonly topic = Topics.ledgerEvents.name;

  constructor(
    private readonly log: EventLog,
    private readonly logger: Logger,
    private readonly handle: (event: LedgerJournalEvent) => void,
  ) {}

  async start(): Promise<void> {
    const startOffsets = await this.log.endOffsets(this.topic);
    const next = [...startOffsets];
    const live = new Set<number>();
    this.consumer = await this.log.consume({
      groupId: `user-stream.${hostname()}.${process.pid}.${randomUUID()}`,
      topics: [this.topic],
      fromBeginning: false,
      ephemeral: true,
      eachBatch: async (batch) => {
        const first = batch.records[0];
        const expected = next[batch.partition] ?? 0;
        if (first && first.offset > expected && !live.has(batch.partition))
          await this.log.read(
            this.topic,
            batch.partition,
            expected,
            async (records) => this.deliver(records, next),
            first.offset,
          );
        if (first) live.add(batch.partition);
        this.deliver(batch.records, next);
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
  }

  /** Records at or past the partition's next offset, each once even if a batch is delivered again. */
  private deliver(records: readonly IncomingRecord[], next: number[]): void {
    for (const record of records) {
      if (record.offset < (next[record.partition] ?? 0)) continue;
      next[record.partition] = record.offset + 1;
      const event = decodeOnce(record, parseLedgerEvent);
      if (!event) {
        this.logger.warn(
          { partition: record.partition, offset: record.offset },
          'user-stream: a record that is not a ledger event was skipped',
        );
        continue;
      }
      try {
        this.handle(event);
      } catch (error) {
        // A frame that cannot be rendered must not stop every other account's stream.
        this.logger.error(
          { err: error, partition: record.partition, offset: record.offset },
          'user-stream: rendering a ledger event failed',
        );
      }
    }
  }
}
