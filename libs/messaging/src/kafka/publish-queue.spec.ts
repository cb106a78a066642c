import type { OutgoingRecord } from '../event-log.port';
import { PublishQueue } from './publish-queue';

const record = (n: number, bytes = 10): OutgoingRecord => ({ topic: 't', key: 'k', value: `${n}`.padEnd(bytes, 'x') });

/** A send that holds each call until released, recording what it was given. */
function heldSends() {
  const sends: { records: readonly OutgoingRecord[]; release: (error?: Error) => void }[] = [];
  const send = (records: readonly OutgoingRecord[]) =>
    new Promise<void>((done, fail) => sends.push({ records, release: (error) => (error ? fail(error) : done()) }));
  return { sends, send };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('PublishQueue', () => {
  it('sends what is published while a send is in flight together in the next one, in call order', async () => {
    const { sends, send } = heldSends();
    const queue = new PublishQueue(send);
    const first = queue.publish([record(1)]);
    const later = [queue.publish([record(2)]), queue.publish([record(3), record(4)]), queue.publish([record(5)])];
    await settled();
    expect(sends.map((s) => s.records)).toEqual([[record(1)]]);
    sends[0]!.release();
    await first;
    await settled();
    expect(sends.map((s) => s.records)).toEqual([[record(1)], [record(2), record(3), record(4), record(5)]]);
    sends[1]!.release();
    await Promise.all(later);
  });

  it('fails only the callers of the send that failed', async () => {
    const { sends, send } = heldSends();
    const queue = new PublishQueue(send);
    const first = queue.publish([record(1)]);
    const second = queue.publish([record(2)]);
    await settled();
    sends[0]!.release(new Error('broker gone'));
    await expect(first).rejects.toThrow('broker gone');
    await settled();
    sends[1]!.release();
    await expect(second).resolves.toBeUndefined();
  });

  it('carries whole callers up to the size bound, one larger caller alone', async () => {
    const { sends, send } = heldSends();
    const queue = new PublishQueue(send, 200);
    // About 43, 83, 83, 533 and 43 bytes with the per-record framing.
    const all = [
      queue.publish([record(1)]),
      queue.publish([record(2, 50)]),
      queue.publish([record(3, 50)]),
      queue.publish([record(4, 500)]),
      queue.publish([record(5)]),
    ];
    for (let i = 0; i < 4; i++) {
      await settled();
      sends[i]!.release();
    }
    await Promise.all(all);
    expect(sends.map((s) => s.records.map((r) => r.value[0]))).toEqual([['1'], ['2', '3'], ['4'], ['5']]);
  });
});
