import type { JournalEntry } from './journal-entry';
import { decodeJournalEntry, decodeSegmentRecord, encodeJournalEntry, encodeSegmentRecord } from './record-codec';
import type { SegmentRecord } from './segment-files';

const value = JSON.stringify({ type: 'OrderAccepted', note: 'quotes " and \\ and ünïcödé 🚀', qty: '0.001' });

describe('record codec', () => {
  it('round-trips a segment record, with and without headers', () => {
    const withHeaders: SegmentRecord = { o: 123_456_789, k: 'BTCUSDT', v: value, h: { 'x-message-id': 'c1:0', 'x-correlation-id': 'é' }, ts: 1_764_000_000_123 };
    const bare: SegmentRecord = { o: 0, k: '', v: '', ts: 0 };
    const large: SegmentRecord = { o: Number.MAX_SAFE_INTEGER, k: 'k', v: 'v', h: { 'x-custom': 'own name', 'x-causation-id': 'c' }, ts: 2 ** 40 + 127 };
    expect(decodeSegmentRecord(encodeSegmentRecord(withHeaders))).toEqual(withHeaders);
    expect(decodeSegmentRecord(encodeSegmentRecord(bare))).toEqual(bare);
    expect(decodeSegmentRecord(encodeSegmentRecord(large))).toEqual(large);
  });

  it('round-trips a journal step of records, definitions and commits', () => {
    const entry: JournalEntry = {
      d: [{ name: 'order.events', partitions: 4, key: 'symbol', config: { 'retention.ms': '-1' } }],
      r: [
        { t: 'order.events', p: 3, k: 'BTCUSDT', v: value, h: { 'x-message-id': 'm' }, ts: 5 },
        { t: 'ledger.commands', p: 0, k: 'u1', v: '{}', ts: 6 },
      ],
      c: [{ g: 'ledger', t: 'ledger.commands', p: 0, o: 42 }],
    };
    expect(decodeJournalEntry(encodeJournalEntry(entry))).toEqual(entry);
    expect(decodeJournalEntry(encodeJournalEntry({ c: entry.c }))).toEqual({ c: entry.c });
  });

  it('reads the JSON payloads of earlier versions', () => {
    const record: SegmentRecord = { o: 7, k: 'k', v: value, ts: 9 };
    const entry: JournalEntry = { r: [{ t: 't', p: 1, k: 'k', v: value, ts: 9 }] };
    expect(decodeSegmentRecord(Buffer.from(JSON.stringify(record)))).toEqual(record);
    expect(decodeJournalEntry(Buffer.from(JSON.stringify(entry)))).toEqual(entry);
  });

  it('stores a JSON value without escaping it: smaller than the JSON framing', () => {
    const record: SegmentRecord = { o: 1000, k: 'BTCUSDT', v: value, h: { 'x-message-id': 'c1:0' }, ts: 1_764_000_000_123 };
    const json = Buffer.byteLength(JSON.stringify(record));
    expect(encodeSegmentRecord(record).length).toBeLessThan(json - (value.match(/"/g) ?? []).length);
  });
});
