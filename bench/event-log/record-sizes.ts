// bench/event-log/record-sizes: what each message type costs in the journal. Reads a stopped
// exchange's DATA_DIR (the embedded log under DATA_DIR/event-log) through the EventLog port and
// prints, per topic and type, the record count, the average bytes of key + value + headers, as a
// segment stores it (binary frame, v2) and as the JSON frames of earlier versions stored it, and
// each per order (orders = SubmitOrder commands on order.commands). Not a test: numbers for the
// README and issue notes. Run: `npm run bench:record-sizes -- <DATA_DIR>`
// (`bench:soak` prints the DATA_DIR it leaves behind).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { allTopics, HeaderNames } from '@exchange/contracts';
import { EmbeddedEventLog, encodeSegmentRecord, type IncomingRecord } from '@exchange/messaging';
import { formatNumber } from '../support/stats';

interface Row {
  count: number;
  bytes: number;
  /** As a segment stores it now: an 8-byte frame header and the binary record. */
  stored: number;
  /** As the JSON frames of earlier versions stored it: the record as JSON, its value a JSON string in it. */
  framed: number;
}

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: node scripts/run.js bench/event-log/record-sizes.ts <DATA_DIR>');
  process.exit(2);
}

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

function recordBytes(record: IncomingRecord): number {
  let bytes = utf8(record.key) + utf8(record.value);
  for (const [name, value] of Object.entries(record.headers)) bytes += utf8(name) + utf8(value);
  return bytes;
}

const FRAME_HEADER_BYTES = 8;

function storedBytes(record: IncomingRecord): number {
  const headers = Object.keys(record.headers).length > 0 ? record.headers : undefined;
  return (
    FRAME_HEADER_BYTES +
    encodeSegmentRecord({ o: record.offset, k: record.key, v: record.value, h: headers, ts: record.timestamp }).length
  );
}

function framedBytes(record: IncomingRecord): number {
  return (
    FRAME_HEADER_BYTES +
    utf8(JSON.stringify({ o: record.offset, k: record.key, v: record.value, h: record.headers, ts: record.timestamp }))
  );
}

function folderBytes(path: string): number {
  return readdirSync(path, { withFileTypes: true }).reduce((sum, entry) => {
    const child = join(path, entry.name);
    return sum + (entry.isDirectory() ? folderBytes(child) : statSync(child).size);
  }, 0);
}

function typeOf(record: IncomingRecord): string {
  const header = record.headers[HeaderNames.messageType];
  if (header) return header;
  try {
    const parsed = JSON.parse(record.value) as { type?: unknown };
    return typeof parsed.type === 'string' ? parsed.type : '(no type)';
  } catch {
    return '(not JSON)';
  }
}

async function main(): Promise<void> {
  const dir = join(dataDir!, 'event-log');
  const log = await EmbeddedEventLog.open({ dir, fsync: 'never' });
  const rows = new Map<string, Row>();
  try {
    // As the exchange does at start: a journal older than a topic has no definition of it yet.
    await log.createTopics(allTopics);
    for (const topic of allTopics) {
      const ends = await log.endOffsets(topic.name);
      for (let partition = 0; partition < ends.length; partition++) {
        await log.read(topic.name, partition, 0, async (records) => {
          for (const record of records) {
            const key = `${topic.name}\u0000${typeOf(record)}`;
            const row = rows.get(key) ?? { count: 0, bytes: 0, stored: 0, framed: 0 };
            row.count += 1;
            row.bytes += recordBytes(record);
            row.stored += storedBytes(record);
            row.framed += framedBytes(record);
            rows.set(key, row);
          }
        });
      }
    }
  } finally {
    await log.close();
  }
  const orders = rows.get(`order.commands\u0000SubmitOrder`)?.count ?? 0;
  const journalBytes = folderBytes(dir);
  const perOrder = (n: number): string => (orders === 0 ? '-' : formatNumber(n / orders, 2));
  console.log(
    `${dataDir}: ${formatNumber(orders)} orders (SubmitOrder), event-log folder ${formatNumber(journalBytes)} bytes = ${perOrder(journalBytes)} bytes/order`,
  );
  console.log(
    'topic                     type                        records   avg bytes  avg stored    avg JSON   per order   bytes/order  stored/order  JSON/order',
  );
  let [total, stored, framed] = [0, 0, 0];
  const sorted = [...rows.entries()].sort((a, b) => b[1].bytes - a[1].bytes);
  for (const [key, row] of sorted) {
    const [topic, type] = key.split('\u0000') as [string, string];
    total += row.bytes;
    stored += row.stored;
    framed += row.framed;
    const avg = (n: number): string => formatNumber(n / row.count).padStart(11);
    console.log(
      `${topic.padEnd(25)} ${type.padEnd(26)} ${formatNumber(row.count).padStart(9)} ${avg(row.bytes)} ${avg(row.stored)} ${avg(row.framed)} ${perOrder(row.count).padStart(11)} ${perOrder(row.bytes).padStart(13)} ${perOrder(row.stored).padStart(13)} ${perOrder(row.framed).padStart(11)}`,
    );
  }
  console.log(
    `records (key + value + headers): ${formatNumber(total)} bytes = ${perOrder(total)} bytes/order; as stored in segments ${perOrder(stored)} bytes/order (JSON frames of earlier versions: ${perOrder(framed)}); the write-ahead log since the last checkpoint, indexes and the manifest are the rest of the folder`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
