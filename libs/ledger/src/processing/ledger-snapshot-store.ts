import { Inject, Injectable } from '@nestjs/common';
import { HeaderNames, Topics } from '@exchange/contracts';
import type { EventLog, IncomingRecord, OutgoingRecord } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { type EndedOrder, type EndedRef, endedRefOf } from './ended-orders';
import type { Share } from './partition-shares';
import type { PartitionState } from './partition-state';
import type { SlotWrite } from './slot-ring';

const topic = Topics.ledgerSnapshots.name;
/** Below Kafka's default max.message.bytes (1 MB) with room for headers: a record of any size fits in chunks. */
const CHUNK_CHARS = 256 * 1024;

/** The whole partition in one snapshot, as versions before incremental snapshots wrote it: still read. */
const FULL = 'LedgerPartitionSnapshot';
const SHARE = 'LedgerSnapshotShare';
const IDS = 'LedgerSnapshotProcessedIds';
const ENDED = 'LedgerSnapshotEndedOrders';
const MARKER = 'LedgerSnapshotMarker';

const H = {
  partition: 'x-snapshot-partition',
  inputOffset: 'x-snapshot-input-offset',
  eventsOffset: 'x-snapshot-events-offset',
  chunk: 'x-snapshot-chunk',
  chunks: 'x-snapshot-chunks',
  /** The snapshot (its marker's seq) a share or a slot of ids was written with. */
  seq: 'x-snapshot-seq',
  /** What a share or a slot record holds: `share/<userId>`, `ids/<slot>` or `ended/<slot>`. */
  unit: 'x-snapshot-unit',
  /** The rings a slot record belongs to (SnapshotMarker.ring.epoch). */
  epoch: 'x-snapshot-epoch',
} as const;

/** What an incremental snapshot's marker names: the state is every share and slot written at or before it. */
export interface SnapshotMarker {
  /** Increases by one per snapshot of the partition. */
  seq: number;
  inputOffset: number;
  eventsOffset: number;
  /** The rings of the window (slot-ring.ts): the slots the next snapshot writes, and the next ended order's number. */
  ring: {
    /** The snapshot that started the rings: slots of other epochs (rings given up, see LedgerSnapshots) are not read. */
    epoch: number;
    ids: number;
    ended: number;
    endedSeq: number;
  };
}

/** The records of one snapshot: the shares changed since the last one, a slot of each ring, then its marker. */
export interface SnapshotWrite {
  partition: number;
  marker: SnapshotMarker;
  shares: ReadonlyMap<string, Share>;
  ids: SlotWrite<[string, number]> | undefined;
  ended: SlotWrite<EndedOrder> | undefined;
}

export interface LedgerSnapshot {
  partition: number;
  /** The ledger.commands offset the state includes every command below. */
  inputOffset: number;
  /** The ledger.events offset the state includes every event below (events past it are folded on load). */
  eventsOffset: number;
  /** The partition's state as shares to restore in turn (one share for a full snapshot). */
  shares: PartitionState[];
  /** The ended orders that hold their client ids, kept apart from the shares (ended-orders.ts), and when each account last evicted them. */
  ended: EndedOrder[];
  evictedAt: Map<string, number>;
  /** Command ids decided within the retry window, with their decision time, oldest first. */
  processed: [commandId: string, decidedAt: number][];
  /**
   * Set for an incremental snapshot: where the next one continues (a full one is followed by every
   * share), and whether its shares still hold their contract orders' ended client ids (written
   * before those joined the ring: the next snapshot writes every share, and the rings afresh).
   */
  incremental?: {
    marker: SnapshotMarker;
    ids: [string, number][][];
    ended: [number, EndedRef][][];
    contractIdsInShares: boolean;
  };
}

/**
 * One ledger.commands partition's hot state on the compacted `ledger.snapshots`, on the same
 * partition number. A snapshot writes the shares (partition-shares.ts) that changed since the one
 * before, each keyed `<partition>/share/<userId>/<chunk>`, the processed ids decided since, in a
 * slot of a ring keyed `<partition>/ids/<slot>/<chunk>`, then its marker `<partition>/marker`,
 * all in the caller's batch's atomic step. Read back: the state at the newest marker not past
 * the group's position is each key's latest record written before it. Records after the last
 * marker (a torn step, which the embedded log's atomic entry and Kafka's read_committed never
 * show anyway) are not used; compaction only removes values replaced before the marker. Full
 * snapshots of earlier versions (`<partition>/<chunk>`) are read as before.
 */
@Injectable()
export class LedgerSnapshotStore {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  records(write: SnapshotWrite): OutgoingRecord[] {
    const { partition, marker } = write;
    const records: OutgoingRecord[] = [];
    const base = {
      [H.partition]: String(partition),
      [H.seq]: String(marker.seq),
      [H.inputOffset]: String(marker.inputOffset),
    };
    const id = `ledger-snapshot@${partition}:${marker.inputOffset}`;
    const chunked = (type: string, unit: string, text: string, extra: Record<string, string> = {}): void =>
      cut(text).forEach((value, chunk, chunks) =>
        records.push({
          topic,
          key: `${partition}/${unit}/${chunk}`,
          partition,
          value,
          headers: {
            ...base,
            [HeaderNames.messageId]: `${id}/${unit}/${chunk}`,
            [HeaderNames.messageType]: type,
            [H.unit]: unit,
            [H.chunk]: String(chunk),
            [H.chunks]: String(chunks.length),
            ...extra,
          },
        }),
      );
    for (const [userId, share] of write.shares) chunked(SHARE, `share/${userId}`, JSON.stringify({ v: 1, ...share }));
    const epoch = { [H.epoch]: String(marker.ring.epoch) };
    if (write.ids) chunked(IDS, `ids/${write.ids.slot}`, JSON.stringify(write.ids.entries), epoch);
    if (write.ended) chunked(ENDED, `ended/${write.ended.slot}`, JSON.stringify(write.ended.entries), epoch);
    records.push({
      topic,
      key: `${partition}/marker`,
      partition,
      // v3: the shares hold no ended contract orders' client ids; they are in the ring of ended orders.
      value: JSON.stringify({ v: 3, ...marker }),
      headers: {
        ...base,
        [HeaderNames.messageId]: `${id}/marker`,
        [HeaderNames.messageType]: MARKER,
        [H.eventsOffset]: String(marker.eventsOffset),
      },
    });
    return records;
  }

  /** The newest usable snapshot of `partition` whose input offset is at most `maxInputOffset`. */
  async latest(partition: number, maxInputOffset: number): Promise<LedgerSnapshot | undefined> {
    const full = new FullSnapshots(partition, maxInputOffset);
    const incremental = new IncrementalSnapshot(partition, maxInputOffset);
    await this.log.read(topic, partition, 0, async (records) => {
      for (const r of records) {
        if (r.headers[H.partition] !== String(partition)) continue;
        if (r.headers[HeaderNames.messageType] === FULL) full.consider(r);
        else incremental.consider(r);
      }
    });
    const found = incremental.snapshot();
    if (found.warning) this.logger.warn({ partition, ...found.warning }, 'ledger: unusable snapshot passed over');
    const older = full.newest(found.snapshot?.inputOffset ?? -1, (inputOffset, complete) =>
      // A snapshot only shortens the fold: without a readable one the partition folds from further back.
      this.logger.warn({ partition, inputOffset, complete }, 'ledger: unusable snapshot passed over'),
    );
    return older ?? found.snapshot;
  }
}

/** The incremental snapshot named by the newest marker not past the target, read in one pass. */
class IncrementalSnapshot {
  /** Each key's latest record up to the chosen marker, and after it. */
  private readonly accepted = new Map<string, IncomingRecord>();
  private readonly pending = new Map<string, IncomingRecord>();
  private marker: SnapshotMarker | undefined;
  private contractIdsInShares = false;
  /** A marker past the target was seen: compaction may have replaced what the chosen one needs. */
  private passedTarget = false;

  constructor(
    private readonly partition: number,
    private readonly maxInputOffset: number,
  ) {}

  consider(r: IncomingRecord): void {
    const type = r.headers[HeaderNames.messageType];
    if (type === SHARE || type === IDS || type === ENDED) {
      this.pending.set(r.key, r);
      return;
    }
    if (type !== MARKER) return;
    const parsed = parseMarker(r.value);
    if (!parsed || parsed.marker.inputOffset > this.maxInputOffset) {
      this.passedTarget ||= parsed !== undefined;
      return;
    }
    for (const [key, record] of this.pending) this.accepted.set(key, record);
    this.pending.clear();
    this.marker = parsed.marker;
    this.contractIdsInShares = parsed.v < 3;
  }

  snapshot(): { snapshot?: LedgerSnapshot; warning?: Record<string, unknown> } {
    const marker = this.marker;
    if (!marker) return {};
    const warning = { inputOffset: marker.inputOffset, incremental: true };
    if (this.passedTarget) return { warning: { ...warning, reason: 'a newer snapshot is past the target' } };
    const found: LedgerSnapshot = {
      partition: this.partition,
      inputOffset: marker.inputOffset,
      eventsOffset: marker.eventsOffset,
      shares: [],
      ended: [],
      evictedAt: new Map(),
      processed: [],
      incremental: { marker, ids: [], ended: [], contractIdsInShares: this.contractIdsInShares },
    };
    for (const [unit, text] of this.units(String(marker.ring.epoch))) {
      if (text === undefined) return { warning: { ...warning, unit, reason: 'incomplete' } };
      if (!this.restoreUnit(found, unit, parseJson(text)))
        return { warning: { ...warning, unit, reason: 'unreadable' } };
    }
    // Slots are written in turn but carry older ids over: the window is kept oldest first (ProcessedIds.expire).
    found.processed.sort((a, b) => a[1] - b[1]);
    return { snapshot: found };
  }

  /** Adds a unit read back to the snapshot; false when it cannot be read. */
  private restoreUnit(found: LedgerSnapshot, unit: string, parsed: unknown): boolean {
    const [kind, name] = [unit.slice(0, unit.indexOf('/')), unit.slice(unit.indexOf('/') + 1)];
    if (kind === 'share') {
      const share = asShare(parsed) as (PartitionState & Partial<Share>) | undefined;
      if (!share) return false;
      found.shares.push(share);
      for (const [accountId, at] of share.evictedAt ?? []) found.evictedAt.set(accountId, at);
      return true;
    }
    if (!Array.isArray(parsed)) return false;
    if (kind === 'ids') {
      const entries = parsed as [string, number][];
      found.incremental!.ids[Number(name)] = entries;
      found.processed.push(...entries);
    } else {
      const entries = parsed as EndedOrder[];
      found.incremental!.ended[Number(name)] = entries.map(([seq, order]) => [seq, endedRefOf(order)]);
      found.ended.push(...entries);
    }
    return true;
  }

  /** Each unit's text, joined from the chunks of its latest write; undefined when one is missing. */
  private units(epoch: string): Map<string, string | undefined> {
    const units = new Map<string, string | undefined>();
    for (const [key, first] of this.accepted) {
      if (first.headers[H.chunk] !== '0') continue;
      if (first.headers[H.epoch] !== undefined && first.headers[H.epoch] !== epoch) continue;
      const unit = first.headers[H.unit]!;
      const count = Number(first.headers[H.chunks]);
      const prefix = key.slice(0, key.length - 1);
      const chunks: string[] = [];
      for (let chunk = 0; chunk < count; chunk++) {
        const r = this.accepted.get(`${prefix}${chunk}`);
        // A chunk left by a longer, older write of the unit names another snapshot.
        if (
          !r ||
          r.headers[H.seq] !== first.headers[H.seq] ||
          r.headers[H.inputOffset] !== first.headers[H.inputOffset]
        )
          break;
        chunks.push(r.value);
      }
      units.set(unit, chunks.length === count ? chunks.join('') : undefined);
    }
    return units;
  }
}

/** Full snapshots as earlier versions wrote them, all in chunks naming their offsets. */
class FullSnapshots {
  private readonly found = new Map<number, { eventsOffset: number; chunks: string[]; count: number }>();

  constructor(
    private readonly partition: number,
    private readonly maxInputOffset: number,
  ) {}

  consider(r: IncomingRecord): void {
    const inputOffset = Number(r.headers[H.inputOffset]);
    if (!(inputOffset <= this.maxInputOffset)) return;
    const count = Number(r.headers[H.chunks]);
    let entry = this.found.get(inputOffset);
    if (!entry)
      this.found.set(inputOffset, (entry = { eventsOffset: Number(r.headers[H.eventsOffset]), chunks: [], count }));
    entry.chunks[Number(r.headers[H.chunk])] = r.value;
  }

  /** The newest readable one taken after `after`. */
  newest(after: number, unusable: (inputOffset: number, complete: boolean) => void): LedgerSnapshot | undefined {
    for (const inputOffset of [...this.found.keys()].sort((a, b) => b - a)) {
      if (inputOffset <= after) return undefined;
      const entry = this.found.get(inputOffset)!;
      const complete = entry.chunks.length === entry.count && entry.chunks.every((c) => c !== undefined);
      const state = complete ? parseFullState(entry.chunks.join('')) : undefined;
      if (state)
        return {
          partition: this.partition,
          inputOffset,
          eventsOffset: entry.eventsOffset,
          shares: [state],
          ended: [],
          evictedAt: new Map(),
          processed: state.processed,
        };
      unusable(inputOffset, complete);
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseMarker(text: string): { marker: SnapshotMarker; v: number } | undefined {
  const { v, ...m } = (parseJson(text) ?? {}) as Partial<SnapshotMarker> & { v?: number };
  const r = m.ring;
  const fields = [m.seq, m.inputOffset, m.eventsOffset, r?.epoch, r?.ids, r?.ended, r?.endedSeq];
  return (v === 2 || v === 3) && fields.every(Number.isInteger) ? { marker: m as SnapshotMarker, v } : undefined;
}

function asShare(parsed: unknown): PartitionState | undefined {
  const share = parsed as (Partial<PartitionState> & { v?: number }) | undefined;
  return share?.v === 1 && hasLists(share) ? (share as PartitionState) : undefined;
}

function parseFullState(text: string): PartitionState | undefined {
  return asShare(parseJson(text));
}

function hasLists(parsed: Partial<PartitionState>): boolean {
  return [
    parsed.users,
    parsed.accounts,
    parsed.apiKeys,
    parsed.orders,
    parsed.clientIds,
    parsed.withdrawals,
    parsed.withdrawalClientIds,
    parsed.processed,
  ].every(Array.isArray);
}
