import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../../../../test/support/wait-for';
import type { IncomingRecord } from '../event-log.port';
import { decodeOnce, decodeRecord } from '../records/decode-once';
import { EmbeddedEventLog } from './embedded-event-log';

const topics = [
  { name: 'in', partitions: 1, key: 'userId' as const, config: {} },
  { name: 'out', partitions: 1, key: 'userId' as const, config: {} },
];
const open = (dir: string): Promise<EmbeddedEventLog> => EmbeddedEventLog.open({ dir, maintenanceIntervalMs: 0 });
const parse = (value: string): unknown => JSON.parse(value);
const recordOf = (topic: string, message: { id: string }) => ({
  topic,
  key: 'u1',
  value: JSON.stringify(message),
  message,
});

async function recordsOf(log: EmbeddedEventLog, topic: string): Promise<IncomingRecord[]> {
  const records: IncomingRecord[] = [];
  await log.read(topic, 0, 0, async (batch) => void records.push(...batch));
  return records;
}

describe("the embedded log hands this process's consumers the message its producer appended", () => {
  it('to every consumer group and reader, published or emitted by a step; after a restart, the text is decoded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-shared-'));
    const log = await open(dir);
    await log.createTopics(topics);
    const placed = { id: 'c1', payload: { qty: '1' } };
    const decided = { id: 'e1', payload: { qty: '1', status: 'NEW' } };
    const seen: unknown[] = [];
    const decider = await log.consume({
      groupId: 'decider',
      topics: ['in'],
      fromBeginning: true,
      readUnsynced: true,
      eachBatch: async (batch) => {
        seen.push(...batch.records.map((r) => decodeRecord(r, parse)));
        return { emit: [recordOf('out', decided)] };
      },
    });
    const readers = ['replies', 'stream'].map(async (groupId) => {
      const values: unknown[] = [];
      const consumer = await log.consume({
        groupId,
        topics: ['out'],
        fromBeginning: true,
        eachBatch: async (batch) => void values.push(...batch.records.map((r) => decodeOnce(r, parse))),
      });
      return { consumer, values };
    });
    const [replies, stream] = await Promise.all(readers);
    try {
      await log.publish([recordOf('in', placed)]);
      await waitFor(() => replies!.values.length === 1 && stream!.values.length === 1, 'both readers');
      expect(seen[0]).toBe(placed);
      expect(replies!.values[0]).toBe(decided);
      expect(stream!.values[0]).toBe(decided);
      expect(decodeRecord((await recordsOf(log, 'out'))[0]!, parse)).toBe(decided);
    } finally {
      for (const consumer of [decider, replies!.consumer, stream!.consumer]) await consumer.stop();
      await log.close();
    }

    const reopened = await open(dir);
    const [fromDisk] = await recordsOf(reopened, 'out');
    const decoded = decodeRecord(fromDisk!, parse);
    expect(decoded).not.toBe(decided);
    expect(decoded).toEqual(decided);
    await reopened.close();
  });
});
