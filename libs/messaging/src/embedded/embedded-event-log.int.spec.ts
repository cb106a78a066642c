import { appendFileSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEventLogContract } from '../contract/event-log.contract';
import { EmbeddedEventLog } from './embedded-event-log';
import { encodeFrame } from './journal-file';

describeEventLogContract('embedded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'event-log-'));
  return {
    open: () => EmbeddedEventLog.open({ dir, fsync: 'always' }),
    childEnv: { CONTRACT_LOG_KIND: 'embedded', CONTRACT_LOG_DIR: dir },
    exclusiveWriter: true,
  };
});

describe('embedded event log recovery', () => {
  const definition = { name: 'recovery', partitions: 1, key: 'userId' as const, config: {} };

  it('cuts a torn last frame and keeps every whole one before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-torn-'));
    const log = await EmbeddedEventLog.open({ dir });
    await log.createTopics([definition]);
    await log.publish([{ topic: 'recovery', key: 'a', value: 'one' }]);
    await log.publish([{ topic: 'recovery', key: 'a', value: 'two' }]);
    await log.close();
    const path = join(dir, 'journal.log');
    const whole = statSync(path).size;
    const next = encodeFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: 'three', ts: 0 }] });
    appendFileSync(path, next.subarray(0, next.length - 3));

    const warnings: unknown[] = [];
    const reopened = await EmbeddedEventLog.open({ dir, onWarning: (_m, details) => warnings.push(details) });
    const values: string[] = [];
    await reopened.read('recovery', 0, 0, async (batch) => {
      values.push(...batch.map((r) => r.value));
    });
    expect(values).toEqual(['one', 'two']);
    expect(warnings).toEqual([{ path, tornBytes: next.length - 3 }]);
    expect(statSync(path).size).toBe(whole);
    await reopened.publish([{ topic: 'recovery', key: 'a', value: 'three' }]);
    await reopened.close();

    const again = await EmbeddedEventLog.open({ dir });
    expect(await again.endOffsets('recovery')).toEqual([3]);
    await again.close();
  });

  it('refuses a frame whose checksum does not match, even when its length fits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-log-crc-'));
    const log = await EmbeddedEventLog.open({ dir });
    await log.createTopics([definition]);
    await log.close();
    const frame = encodeFrame({ r: [{ t: 'recovery', p: 0, k: 'a', v: 'x', ts: 0 }] });
    const at = frame.length - 2;
    frame.writeUInt8(frame.readUInt8(at) ^ 0xff, at);
    appendFileSync(join(dir, 'journal.log'), frame);
    const reopened = await EmbeddedEventLog.open({ dir });
    expect(await reopened.endOffsets('recovery')).toEqual([0]);
    await reopened.close();
  });
});
