import { Inject, Injectable } from '@nestjs/common';
import { HeaderNames, Topics } from '@exchange/contracts';
import type { EventLog, IncomingRecord, OutgoingRecord } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import type { PartitionState } from './partition-state';

const topic = Topics.ledgerSnapshots.name;
const TYPE = 'LedgerPartitionSnapshot';
/** Below Kafka's default max.message.bytes (1 MB) with room for headers: a snapshot of any size fits in chunks. */
const CHUNK_CHARS = 256 * 1024;

const H = {
  partition: 'x-snapshot-partition',
  inputOffset: 'x-snapshot-input-offset',
  eventsOffset: 'x-snapshot-events-offset',
  chunk: 'x-snapshot-chunk',
  chunks: 'x-snapshot-chunks',
} as const;

export interface LedgerSnapshot {
  partition: number;
  /** The ledger.commands offset the state includes every command below. */
  inputOffset: number;
  /** The ledger.events offset the state includes every event below (events past it are folded on load). */
  eventsOffset: number;
  state: PartitionState;
}

/**
 * One ledger.commands partition's hot state on the compacted `ledger.snapshots`, on the same
 * partition number, as JSON text cut into chunks keyed `<partition>/<chunk>` (a partition holds
 * every account of its users: far past one Kafka record). Written as records the caller emits
 * in its batch's atomic step. Read back: the complete snapshot with the highest input offset not
 * past the group's position; chunks of an older snapshot that compaction has not yet replaced,
 * or of one from a torn step, never mix in, because every chunk names its snapshot's offsets.
 */
@Injectable()
export class LedgerSnapshotStore {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  records(snapshot: LedgerSnapshot, ts: number): OutgoingRecord[] {
    const text = JSON.stringify({ v: 1, ts, ...snapshot.state });
    const chunks = cut(text);
    const id = `ledger-snapshot@${snapshot.partition}:${snapshot.inputOffset}`;
    return chunks.map((value, chunk) => ({
      topic,
      key: `${snapshot.partition}/${chunk}`,
      partition: snapshot.partition,
      value,
      headers: {
        [HeaderNames.messageId]: `${id}/${chunk}`,
        [HeaderNames.messageType]: TYPE,
        [H.partition]: String(snapshot.partition),
        [H.inputOffset]: String(snapshot.inputOffset),
        [H.eventsOffset]: String(snapshot.eventsOffset),
        [H.chunk]: String(chunk),
        [H.chunks]: String(chunks.length),
      },
    }));
  }

  /** The newest complete snapshot of `partition` whose input offset is at most `maxInputOffset`. */
  async latest(partition: number, maxInputOffset: number): Promise<LedgerSnapshot | undefined> {
    const found = new Map<number, { eventsOffset: number; chunks: string[]; count: number }>();
    const consider = (r: IncomingRecord): void => {
      const inputOffset = Number(r.headers[H.inputOffset]);
      if (r.headers[H.partition] !== String(partition) || !(inputOffset <= maxInputOffset)) return;
      const count = Number(r.headers[H.chunks]);
      let entry = found.get(inputOffset);
      if (!entry)
        found.set(inputOffset, (entry = { eventsOffset: Number(r.headers[H.eventsOffset]), chunks: [], count }));
      entry.chunks[Number(r.headers[H.chunk])] = r.value;
    };
    await this.log.read(topic, partition, 0, async (records) => records.forEach(consider));
    for (const inputOffset of [...found.keys()].sort((a, b) => b - a)) {
      const entry = found.get(inputOffset)!;
      const complete = entry.chunks.length === entry.count && entry.chunks.every((c) => c !== undefined);
      const state = complete ? parseState(entry.chunks.join('')) : undefined;
      if (state) return { partition, inputOffset, eventsOffset: entry.eventsOffset, state };
      // A snapshot only shortens the fold: without a readable one the partition folds from further back.
      this.logger.warn({ partition, inputOffset, complete }, 'ledger: unusable snapshot passed over');
    }
    return undefined;
  }
}

/** Cuts text into chunks, never between the two halves of a surrogate pair (each chunk must be valid UTF-16). */
function cut(text: string): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks.length > 0 ? chunks : [''];
}

function parseState(text: string): PartitionState | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<PartitionState> & { v?: number };
    const lists = [
      parsed.users,
      parsed.accounts,
      parsed.apiKeys,
      parsed.orders,
      parsed.clientIds,
      parsed.withdrawals,
      parsed.withdrawalClientIds,
      parsed.processed,
    ];
    return parsed.v === 1 && lists.every(Array.isArray) ? (parsed as PartitionState) : undefined;
  } catch {
    return undefined;
  }
}
