import type { OutgoingRecord } from '../event-log.port';
import { MAX_REQUEST_BYTES, recordBytes } from './kafka-requests';

interface Waiting {
  records: readonly OutgoingRecord[];
  bytes: number;
  done: () => void;
  fail: (error: unknown) => void;
}

/**
 * Plain publishes through one producer with one request in flight, coalesced: what callers
 * publish while a send is in flight goes out together in the next one, in call order. A gateway
 * publishes one command per REST request; sent one request each, the commands of 100 concurrent
 * clients queued behind one broker round trip apiece (about 130 commands/s under load with the
 * broker on the same machine). Each send carries whole callers up to `maxBytes` (one caller
 * larger than that goes alone, split by `send`), so a failed send fails only the callers it carried.
 */
export class PublishQueue {
  private readonly waiting: Waiting[] = [];
  private sending = false;

  constructor(
    private readonly send: (records: readonly OutgoingRecord[]) => Promise<void>,
    private readonly maxBytes = MAX_REQUEST_BYTES,
  ) {}

  publish(records: readonly OutgoingRecord[]): Promise<void> {
    return new Promise((done, fail) => {
      this.waiting.push({ records, bytes: records.reduce((n, r) => n + recordBytes(r), 0), done, fail });
      if (!this.sending) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const carried = this.waiting.splice(0, this.callersThatFit());
      try {
        await this.send(carried.length === 1 ? carried[0]!.records : carried.flatMap((w) => w.records));
        for (const w of carried) w.done();
      } catch (error) {
        for (const w of carried) w.fail(error);
      }
    }
    this.sending = false;
  }

  /** How many of the first callers one send carries: at least one. */
  private callersThatFit(): number {
    let bytes = this.waiting[0]!.bytes;
    let count = 1;
    while (count < this.waiting.length && bytes + this.waiting[count]!.bytes <= this.maxBytes)
      bytes += this.waiting[count++]!.bytes;
    return count;
  }
}
