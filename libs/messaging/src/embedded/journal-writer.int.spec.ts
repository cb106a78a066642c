import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalWriter } from './journal-writer';

/** Counts the fdatasync calls of every FileHandle while a test runs. */
async function countSyncs(dir: string): Promise<{ calls: () => number; restore: () => void }> {
  const probe = await open(join(dir, 'probe'), 'a');
  const prototype = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
  await probe.close();
  const spy = jest.spyOn(prototype, 'datasync');
  return { calls: () => spy.mock.calls.length, restore: () => spy.mockRestore() };
}

const frame = (n: number): Buffer => Buffer.from(`frame ${n}`);
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('JournalWriter', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'journal-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('covers a chain of steps, each appending a turn after the previous one was written, with one fdatasync', async () => {
    // What an order is in one process: the gateway's command, then the ledger, the engine and the
    // ledger again, each deciding from the record just written. Its reply waits for the last one.
    const syncs = await countSyncs(dir);
    const writer = await JournalWriter.open(join(dir, 'journal'), 'always', undefined, 60_000);
    try {
      const durable: Promise<void>[] = [];
      const step = (n: number): void => {
        durable.push(
          writer.append(frame(n), {
            onWritten: () => {
              if (n < 4) setImmediate(() => step(n + 1));
            },
          }),
        );
      };
      step(1);
      while (durable.length < 4) await nextTurn();
      await Promise.all(durable);
      expect(syncs.calls()).toBe(1);
    } finally {
      syncs.restore();
      await writer.close();
    }
  });

  it('does not hold a sync back for longer than its settle time while appends never pause', async () => {
    const writer = await JournalWriter.open(join(dir, 'journal'), 'always', undefined, 5);
    try {
      let durable = false;
      void writer.append(frame(-1), { onWritten: () => {} }).then(() => (durable = true));
      // A new frame every turn: without the bound the first append would wait for the appends to
      // pause. 10,000 turns take far longer than the 5 ms settle time, however busy the machine.
      let appended = 0;
      while (!durable && appended < 10_000) {
        void writer.append(frame(appended++), { onWritten: () => {} });
        await nextTurn();
      }
      expect(durable).toBe(true);
    } finally {
      await writer.close();
    }
  });
});
