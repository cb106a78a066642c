import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../../../../test/support/wait-for';
import { EmbeddedEventLog } from './embedded-event-log';

const topic = { name: 'ledger-events', partitions: 1, key: 'userId' as const, config: {} };
const nextTurn = (): Promise<void> => new Promise((next) => setImmediate(next));

describe('embedded event log: whose work runs first when a record lands', () => {
  it("answers the waiting client before a durable group's batch runs, whichever group waited first", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-turns-'));
    const log = await EmbeddedEventLog.open({ dir, fsync: 'always', maintenanceIntervalMs: 0 });
    await log.createTopics([topic]);
    const happened: string[] = [];
    let replied!: () => void;
    const reply = new Promise<void>((resolve) => (replied = resolve));
    // A client's answer goes out through a chain of promise continuations (Nest's handler,
    // interceptors, Fastify's send), each a microtask after the reply reader resolves it.
    const answered = reply.then(async () => {
      for (let hop = 0; hop < 25; hop++) await Promise.resolve();
      happened.push('answered');
    });
    // The projection joins first, so it is the first the record wakes.
    const projection = await log.consume({
      groupId: 'projection',
      topics: [topic.name],
      fromBeginning: true,
      eachBatch: async (batch) => void happened.push(`projected ${batch.records.length}`),
    });
    const replies = await log.consume({
      groupId: 'gateway-replies',
      topics: [topic.name],
      fromBeginning: false,
      ephemeral: true,
      eachBatch: async () => replied(),
    });
    await nextTurn();
    await nextTurn();

    try {
      await log.publish([{ topic: topic.name, key: 'u1', value: 'OrderOutcomeApplied' }]);
      await answered;
      await waitFor(() => happened.length === 2, "the projection's batch");

      expect(happened).toEqual(['answered', 'projected 1']);
    } finally {
      await replies.stop();
      await projection.stop();
      await log.close();
    }
  });
});
