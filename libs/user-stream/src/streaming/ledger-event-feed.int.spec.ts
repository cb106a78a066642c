import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LedgerJournalEvent, type TopicDefinition, Topics } from '@exchange/contracts';
import { EmbeddedEventLog, type EventLog, KafkaEventLog, NamespacedEventLog } from '@exchange/messaging';
import { createLogger } from '@exchange/platform';
import { realServiceAddress } from '../../../../test/support/real-services';
import { waitFor } from '../../../../test/support/wait-for';
import { LedgerEventFeed } from './ledger-event-feed';

const brokers = realServiceAddress('KAFKA_BROKERS', 'ledger event feed on Kafka');

const record = (userId: string, seq: number) => ({
  topic: Topics.ledgerEvents.name,
  key: userId,
  // A whole event: the feed checks each against the journal's schema and skips what is not one.
  value: JSON.stringify({
    type: 'DepositCredited',
    v: 1,
    id: `c${userId}-${seq}:0`,
    ts: seq,
    payload: {
      userId,
      seq,
      commandId: `c${userId}-${seq}`,
      depositId: String(seq),
      accountId: `${userId}01`,
      asset: 'BTC',
      amount: '1',
      flows: [],
      balances: [],
    },
  }),
});

function describeFeed(name: string, available: boolean, open: () => Promise<EventLog>): void {
  (available ? describe : describe.skip)(`ledger event feed of a user-stream replica: ${name}`, () => {
    let log: EventLog;
    beforeAll(async () => {
      log = await open();
      await log.createTopics([Topics.ledgerEvents]);
    });
    afterAll(async () => log.close());

    it("delivers every event published after its start once, in each user's order, and none from before", async () => {
      await log.publish([record('1', 1), record('2', 1)]);
      const seen: LedgerJournalEvent[] = [];
      const feed = new LedgerEventFeed(log, createLogger('test', 'silent'), (event) => seen.push(event));
      await feed.start();
      // Published at once: on Kafka the group has not joined yet, so these land before the offsets it starts from.
      for (let seq = 2; seq <= 30; seq++) await log.publish([record('1', seq), record('2', seq), record('3', seq)]);
      await waitFor(() => seen.length >= 87, 'all 87 events', 30_000);
      await feed.stop();
      for (const user of ['1', '2', '3']) {
        expect(seen.filter((e) => e.payload.userId === user).map((e) => e.payload.seq)).toEqual(
          Array.from({ length: 29 }, (_, i) => i + 2),
        );
      }
      expect(seen).toHaveLength(87);
    }, 60_000);

    it('reads outside its group only up to the first batch of a partition: the transaction markers between ledger steps are no gap', async () => {
      let reads = 0;
      // The same log, its range reads counted.
      const counting: EventLog = Object.create(log) as EventLog;
      counting.read = (...args) => {
        reads += 1;
        return log.read(...args);
      };
      const seen: LedgerJournalEvent[] = [];
      const feed = new LedgerEventFeed(counting, createLogger('test', 'silent'), (event) => seen.push(event));
      await feed.start();
      // One step per input record, as the ledger journals: on Kafka each commits a transaction and leaves a marker.
      const input: TopicDefinition = {
        name: `feed-input-${randomBytes(3).toString('hex')}`,
        partitions: 1,
        key: 'userId',
        config: {},
      };
      await log.createTopics([input]);
      const steps = await log.consume({
        groupId: `feed-steps-${randomBytes(3).toString('hex')}`,
        topics: [input.name],
        fromBeginning: true,
        maxBatchSize: 1,
        eachBatch: async (batch) => ({ emit: batch.records.map((r) => record('4', Number(r.value))) }),
      });
      for (let seq = 1; seq <= 20; seq++) {
        await log.publish([{ topic: input.name, key: '4', value: String(seq) }]);
        await waitFor(() => seen.length >= seq, `event ${seq}`, 30_000);
      }
      await steps.stop();
      await feed.stop();
      expect(seen.map((e) => e.payload.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(reads).toBeLessThanOrEqual(1);
    }, 90_000);
  });
}

describeFeed('embedded', true, async () =>
  EmbeddedEventLog.open({ dir: mkdtempSync(join(tmpdir(), 'user-stream-feed-')), fsync: 'never' }),
);
describeFeed(
  'kafka',
  brokers !== undefined,
  async () =>
    new NamespacedEventLog(
      new KafkaEventLog({ brokers: brokers!.split(','), clientId: 'user-stream-feed-test' }),
      `t${randomBytes(5).toString('hex')}`,
    ),
);
