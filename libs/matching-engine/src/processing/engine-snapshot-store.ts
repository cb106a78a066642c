import { Inject, Injectable } from '@nestjs/common';
import { HeaderNames, type Markets, Topics } from '@exchange/contracts';
import { type EventLog, type IncomingRecord, type OutgoingRecord, partitionForKey } from '@exchange/messaging';
import { EVENT_LOG, LOGGER, type Logger, MARKETS } from '@exchange/platform';
import type { SymbolBook } from '../books/symbol-book';
import { SnapshotHeaders, type SymbolBookSnapshot, symbolBookSnapshotV1 } from '../books/symbol-book-snapshot';

const topic = Topics.engineSnapshots.name;

/**
 * Books on the compacted snapshot topic (key: symbol). Writing: records for the caller to emit,
 * atomically with the batch whose state they capture. Reading: for each symbol the snapshot of
 * the given input partition with the highest offset not past the group's position. Taking the
 * newest one at or below that position, rather than the last record per key, keeps recovery
 * right even if a snapshot ever lands beyond what was committed (a torn Kafka transaction, a
 * second owner during a rebalance): that one is passed over and the replay just starts earlier.
 */
@Injectable()
export class EngineSnapshotStore {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  records(books: readonly SymbolBook[], partition: number, offset: number): OutgoingRecord[] {
    return books.map((book) => {
      const { ts, ...state } = book.state();
      const snapshot: SymbolBookSnapshot = {
        type: 'SymbolBookSnapshot',
        v: 1,
        id: `${book.symbol}@${partition}:${offset}`,
        ts,
        payload: { symbol: book.symbol, partition, offset, marketsVersion: this.markets.version, ...state },
      };
      const headers = {
        [HeaderNames.messageId]: snapshot.id,
        [HeaderNames.messageType]: snapshot.type,
        [SnapshotHeaders.partition]: String(partition),
        [SnapshotHeaders.offset]: String(offset),
      };
      return { topic, key: book.symbol, value: JSON.stringify(snapshot), headers };
    });
  }

  /** The best snapshot per symbol of input `partition` with offset ≤ `maxOffset`; absent symbols start empty. */
  async latest(
    symbols: readonly string[],
    partition: number,
    maxOffset: number,
  ): Promise<Map<string, SymbolBookSnapshot>> {
    const wanted = new Set(symbols);
    const best = new Map<string, { offset: number; value: string }>();
    const consider = (record: IncomingRecord): void => {
      const offset = Number(record.headers[SnapshotHeaders.offset]);
      if (
        !wanted.has(record.key) ||
        record.headers[SnapshotHeaders.partition] !== String(partition) ||
        !(offset <= maxOffset)
      )
        return;
      if (offset >= (best.get(record.key)?.offset ?? -1)) best.set(record.key, { offset, value: record.value });
    };
    const count = await this.log.partitionCount(topic);
    const snapshotPartitions = new Set(symbols.map((s) => partitionForKey(s, count)));
    for (const p of snapshotPartitions) await this.log.read(topic, p, 0, async (records) => records.forEach(consider));
    const snapshots = new Map<string, SymbolBookSnapshot>();
    for (const [symbol, { value }] of best) {
      const parsed = symbolBookSnapshotV1.safeParse(safeJson(value));
      // A snapshot only shortens the replay: without a readable one the book is rebuilt from offset 0.
      if (parsed.success) snapshots.set(symbol, parsed.data);
      else
        this.logger.warn(
          { symbol, partition, issues: parsed.error.issues.slice(0, 3) },
          'matching-engine: unreadable snapshot ignored',
        );
    }
    return snapshots;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
