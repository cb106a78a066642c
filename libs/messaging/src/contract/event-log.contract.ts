import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { TopicDefinition } from '@exchange/contracts';
import { waitFor } from '../../../../test/support/wait-for';
import type { Consumer, EventLog, IncomingRecord } from '../event-log.port';
import { partitionForKey } from '../partitioning/murmur2-partitioner';
import { copyTo } from './copy-transform';
import type { EventLogHarness } from './event-log-harness';

const workspaceRoot = resolve(__dirname, '../../../..');

function topic(partitions: number, config: Record<string, string> = {}): TopicDefinition {
  return { name: `contract-${randomUUID()}`, partitions, key: 'userId', config };
}

async function values(
  log: EventLog,
  topicName: string,
  partition = 0,
  from = 0,
): Promise<{ offset: number; key: string; value: string }[]> {
  const out: { offset: number; key: string; value: string }[] = [];
  await log.read(topicName, partition, from, async (batch) => {
    out.push(...batch.map((r) => ({ offset: r.offset, key: r.key, value: r.value })));
  });
  return out;
}

function records(
  topicName: string,
  count: number,
  keys: number,
  from = 0,
): { topic: string; key: string; value: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    topic: topicName,
    key: `k${(from + i) % keys}`,
    value: String(from + i),
  }));
}

/** Collects what a group member is handed, so tests can wait on it. */
async function collect(log: EventLog, groupId: string, topicName: string, seen: IncomingRecord[]): Promise<Consumer> {
  return log.consume({
    groupId,
    topics: [topicName],
    fromBeginning: true,
    eachBatch: async (batch) => {
      seen.push(...batch.records);
    },
  });
}

async function readAll(log: EventLog, topicName: string): Promise<IncomingRecord[]> {
  const out: IncomingRecord[] = [];
  const partitions = await log.partitionCount(topicName);
  for (let p = 0; p < partitions; p++) {
    await log.read(topicName, p, 0, async (batch) => {
      out.push(...batch);
    });
  }
  return out;
}

function runCrashChild(harness: EventLogHarness, env: Record<string, string>): Promise<NodeJS.Signals | number | null> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['scripts/run.js', 'libs/messaging/src/contract/crash-child.ts'], {
      cwd: workspaceRoot,
      env: { ...process.env, ...harness.childEnv, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(signal ?? code));
  });
}

/**
 * The behaviour every event-log adapter must show. Each test uses its own topics and groups, so
 * the suite can run against a shared broker.
 */
export function describeEventLogContract(name: string, makeHarness: () => Promise<EventLogHarness | undefined>): void {
  const run = (
    title: string,
    test: (harness: EventLogHarness, log: EventLog) => Promise<void>,
    timeout = 60_000,
  ): void => {
    it(
      title,
      async () => {
        const harness = await makeHarness();
        if (!harness) return;
        const log = await harness.open();
        try {
          await test(harness, log);
        } finally {
          await log.close();
        }
      },
      timeout,
    );
  };

  describe(`event log contract: ${name}`, () => {
    run("keeps per-key order and places each key by Kafka's murmur2 partitioner", async (_h, log) => {
      const t = topic(4);
      await log.createTopics([t]);
      for (let chunk = 0; chunk < 5; chunk++) await log.publish(records(t.name, 20, 7, chunk * 20));
      const seen: IncomingRecord[] = [];
      await collect(log, `g-${randomUUID()}`, t.name, seen);
      await waitFor(() => seen.length >= 100, '100 records');
      expect(seen).toHaveLength(100);
      for (let k = 0; k < 7; k++) {
        const ofKey = seen.filter((r) => r.key === `k${k}`);
        expect(ofKey.map((r) => Number(r.value))).toEqual([...ofKey.map((r) => Number(r.value))].sort((a, b) => a - b));
        expect(new Set(ofKey.map((r) => r.partition))).toEqual(new Set([partitionForKey(`k${k}`, 4)]));
      }
    });

    run(
      'hands back a consumer from the end only once it stands there: the next record is delivered',
      async (_h, log) => {
        const t = topic(2);
        await log.createTopics([t]);
        await log.publish(records(t.name, 4, 2));
        const seen: IncomingRecord[] = [];
        await log.consume({
          groupId: `g-${randomUUID()}`,
          topics: [t.name],
          fromBeginning: false,
          ephemeral: true,
          eachBatch: async (batch) => {
            seen.push(...batch.records);
          },
        });
        // Published the moment consume() resolves, as a gateway sends its first command once ready.
        await log.publish(records(t.name, 2, 2, 4));
        await waitFor(() => seen.length >= 2, 'the two records published after the start');
        expect(seen.map((r) => r.value).sort()).toEqual(['4', '5']);
      },
    );

    run('resumes a group from its committed offsets after a restart', async (harness, log) => {
      const t = topic(2);
      const group = `g-${randomUUID()}`;
      await log.createTopics([t]);
      await log.publish(records(t.name, 10, 3));
      const first: IncomingRecord[] = [];
      const consumer = await collect(log, group, t.name, first);
      await waitFor(
        async () => (await log.committedOffsets(group, t.name)).reduce((a, b) => a + b, 0) === 10,
        'commits of the first 10',
      );
      await consumer.stop();
      await log.close();

      const reopened = await harness.open();
      try {
        await reopened.publish(records(t.name, 5, 3, 10));
        const second: IncomingRecord[] = [];
        await collect(reopened, group, t.name, second);
        await waitFor(
          async () => (await reopened.committedOffsets(group, t.name)).reduce((a, b) => a + b, 0) === 15,
          'commits of all 15',
        );
        expect(second.map((r) => Number(r.value)).sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14]);
      } finally {
        await reopened.close();
      }
      log = reopened;
    });

    run('replays a partition from the beginning or from any offset', async (_h, log) => {
      const t = topic(1);
      await log.createTopics([t]);
      await log.publish(records(t.name, 25, 5));
      const all: IncomingRecord[] = [];
      const next = await log.read(t.name, 0, 0, async (batch) => {
        all.push(...batch);
      });
      expect(next).toBe(25);
      expect(all.map((r) => r.offset)).toEqual(Array.from({ length: 25 }, (_, i) => i));
      expect(all.map((r) => r.value)).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
      const tail: IncomingRecord[] = [];
      await log.read(t.name, 0, 20, async (batch) => {
        tail.push(...batch);
      });
      expect(tail.map((r) => r.value)).toEqual(['20', '21', '22', '23', '24']);
      expect(await log.endOffsets(t.name)).toEqual([25]);
    });

    run('reads an old offset after a restart, and a group resumes there', async (harness, log) => {
      const t = topic(1, harness.segmentConfig?.(2048) ?? {});
      const group = `g-${randomUUID()}`;
      await log.createTopics([t]);
      for (let chunk = 0; chunk < 10; chunk++) await log.publish(records(t.name, 50, 7, chunk * 50));
      await log.close();

      const reopened = await harness.open();
      try {
        expect(await reopened.endOffsets(t.name)).toEqual([500]);
        expect((await values(reopened, t.name, 0, 3)).slice(0, 3)).toEqual(
          [3, 4, 5].map((i) => ({ offset: i, key: `k${i % 7}`, value: String(i) })),
        );
        const all = await values(reopened, t.name);
        expect(all.map((r) => r.value)).toEqual(Array.from({ length: 500 }, (_, i) => String(i)));
        const seen: IncomingRecord[] = [];
        await collect(reopened, group, t.name, seen);
        await waitFor(() => seen.length >= 500, 'a group to read all 500 from the beginning');
        expect(seen.map((r) => r.offset)).toEqual(Array.from({ length: 500 }, (_, i) => i));
      } finally {
        await reopened.close();
      }
    });

    run('deletes whole segments past a size retention, never a part of one', async (harness, log) => {
      if (!harness.maintain || !harness.segmentConfig) return;
      const t = topic(1, { ...harness.segmentConfig(256), 'cleanup.policy': 'delete', 'retention.bytes': '1024' });
      await log.createTopics([t]);
      for (let chunk = 0; chunk < 20; chunk++) await log.publish(records(t.name, 10, 3, chunk * 10));
      const before = await values(log, t.name);
      await harness.maintain(log);
      const after = await values(log, t.name);
      expect(before).toHaveLength(200);
      expect(after.length).toBeGreaterThan(0);
      expect(after.length).toBeLessThan(200);
      // What is left is a suffix: the newest records, at their offsets, with nothing missing.
      expect(after).toEqual(before.slice(200 - after.length));
      expect(await log.endOffsets(t.name)).toEqual([200]);
      await log.publish(records(t.name, 1, 3, 200));
      expect((await values(log, t.name)).pop()).toEqual({ offset: 200, key: 'k2', value: '200' });
    });

    run('compacts a topic to the latest record per key, offsets kept', async (harness, log) => {
      if (!harness.maintain || !harness.segmentConfig) return;
      const t = topic(1, { ...harness.segmentConfig(1024), 'cleanup.policy': 'compact' });
      await log.createTopics([t]);
      for (let chunk = 0; chunk < 20; chunk++) await log.publish(records(t.name, 10, 5, chunk * 10));
      const before = await values(log, t.name);
      await harness.maintain(log);
      const after = await values(log, t.name);
      expect(after.length).toBeLessThan(before.length);
      const latest = new Map(before.map((r) => [r.key, r]));
      // Every key's latest record survives at its offset, and nothing survives that was not there.
      for (const r of latest.values()) expect(after).toContainEqual(r);
      for (const r of after) expect(before[r.offset]).toEqual(r);
      expect(after.map((r) => r.offset)).toEqual([...after.map((r) => r.offset)].sort((a, b) => a - b));
      await log.close();
      const reopened = await harness.open();
      try {
        expect(await values(reopened, t.name)).toEqual(after);
      } finally {
        await reopened.close();
      }
    });

    run('lets two groups read the same topic independently', async (_h, log) => {
      const t = topic(3);
      await log.createTopics([t]);
      await log.publish(records(t.name, 30, 4));
      const a: IncomingRecord[] = [];
      const b: IncomingRecord[] = [];
      await collect(log, `ga-${randomUUID()}`, t.name, a);
      await collect(log, `gb-${randomUUID()}`, t.name, b);
      await waitFor(() => a.length >= 30 && b.length >= 30, 'both groups to read 30');
      expect(new Set(a.map((r) => r.value)).size).toBe(30);
      expect(new Set(b.map((r) => r.value)).size).toBe(30);
    });

    run("keeps an ephemeral group's position in the process only and leaves no trace once stopped", async (_h, log) => {
      const t = topic(2);
      const group = `ge-${randomUUID()}`;
      await log.createTopics([t]);
      await log.publish(records(t.name, 10, 3));
      const seen: IncomingRecord[] = [];
      const reader = (into: IncomingRecord[]): Promise<Consumer> =>
        log.consume({
          groupId: group,
          topics: [t.name],
          fromBeginning: true,
          ephemeral: true,
          eachBatch: async (batch) => void into.push(...batch.records),
        });
      const consumer = await reader(seen);
      await waitFor(() => seen.length >= 10, 'the first 10');
      await log.publish(records(t.name, 5, 3, 10));
      await waitFor(() => seen.length >= 15, 'all 15');
      await consumer.stop();
      expect(seen.map((r) => Number(r.value)).sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i));
      expect(await log.committedOffsets(group, t.name)).toEqual([0, 0]);
      // Nothing was kept: the same group id starts over where fromBeginning says.
      const again: IncomingRecord[] = [];
      const second = await reader(again);
      await waitFor(() => again.length >= 15, 'all 15 again');
      await second.stop();
    });

    run(
      'shares partitions with a late joiner and still emits every result exactly once',
      async (_h, log) => {
        const input = topic(4);
        const output = topic(4);
        const group = `g-${randomUUID()}`;
        await log.createTopics([input, output]);
        const handledBy = { first: 0, late: 0 };
        const member = (who: keyof typeof handledBy) => ({
          groupId: group,
          topics: [input.name],
          fromBeginning: true,
          maxBatchSize: 10,
          eachBatch: async (batch: Parameters<ReturnType<typeof copyTo>>[0]) => {
            handledBy[who] += batch.records.length;
            return copyTo(output.name)(batch);
          },
        });
        await log.consume(member('first'));
        await log.publish(records(input.name, 100, 13));
        await waitFor(() => handledBy.first > 0, 'the first member to start');
        await log.consume(member('late'));
        for (let chunk = 1; chunk < 20; chunk++) {
          await log.publish(records(input.name, 10, 13, 90 + chunk * 10));
          await new Promise((r) => setImmediate(r));
        }
        await waitFor(
          async () => (await log.committedOffsets(group, input.name)).reduce((x, y) => x + y, 0) === 290,
          'all 290 inputs committed',
          60_000,
        );
        const out = await readAll(log, output.name);
        expect(out.map((r) => Number(r.value)).sort((x, y) => x - y)).toEqual(Array.from({ length: 290 }, (_, i) => i));
        expect(handledBy.late).toBeGreaterThan(0);
      },
      120_000,
    );

    run(
      'backs off a failing partition on its own: the others keep flowing, and its batch is retried, not skipped',
      async (_h, log) => {
        const t = topic(2);
        await log.createTopics([t]);
        let healed = false;
        let failures = 0;
        const seen: IncomingRecord[] = [];
        await log.consume({
          groupId: `g-${randomUUID()}`,
          topics: [t.name],
          fromBeginning: true,
          eachBatch: async (batch) => {
            if (batch.partition === 0 && !healed) {
              failures++;
              throw new Error('partition 0 cannot be applied yet');
            }
            seen.push(...batch.records);
          },
        });
        await log.publish([{ topic: t.name, key: 'stuck', value: 'stuck', partition: 0 }]);
        await waitFor(() => failures >= 2, 'partition 0 to fail twice');
        const failuresBefore = failures;
        // One at a time: with a back-off shared by the consumer, each of these would wait out partition 0's next back-off.
        for (let i = 0; i < 10; i++) {
          await log.publish([{ topic: t.name, key: 'flowing', value: `v${i}`, partition: 1 }]);
          await waitFor(() => seen.some((r) => r.value === `v${i}`), `record v${i} of partition 1`);
        }
        // Partition 0 is retried on its own clock (300 ms, 1 s, 3 s, ...), not once per record of partition 1.
        expect(failures - failuresBefore).toBeLessThan(5);
        healed = true;
        await waitFor(() => seen.some((r) => r.value === 'stuck'), 'the batch of partition 0, retried', 20_000);
      },
    );

    run(
      'applies a step exactly once when its process is killed between emit and commit',
      async (harness, log) => {
        const input = topic(2);
        const output = topic(2);
        const group = `g-${randomUUID()}`;
        await log.createTopics([input, output]);
        await log.publish(records(input.name, 50, 9));
        if (harness.exclusiveWriter) await log.close();
        const exit = await runCrashChild(harness, {
          CONTRACT_IN_TOPIC: input.name,
          CONTRACT_OUT_TOPIC: output.name,
          CONTRACT_GROUP: group,
          CRASH_AFTER_BATCHES: '3',
        });
        expect(exit).toBe('SIGKILL');
        const after = harness.exclusiveWriter ? await harness.open() : log;
        try {
          await after.consume({
            groupId: group,
            topics: [input.name],
            fromBeginning: true,
            maxBatchSize: 5,
            eachBatch: copyTo(output.name),
          });
          await waitFor(
            async () => (await after.committedOffsets(group, input.name)).reduce((x, y) => x + y, 0) === 50,
            'the survivor to commit all 50',
            60_000,
          );
          const out = await readAll(after, output.name);
          expect(out.map((r) => Number(r.value)).sort((x, y) => x - y)).toEqual(
            Array.from({ length: 50 }, (_, i) => i),
          );
        } finally {
          if (after !== log) await after.close();
        }
      },
      120_000,
    );
  });
}
