import type { JournalEntry } from './journal-entry';
import { decodeJournalEntry, decodeSegmentRecord, encodeJournalEntry, encodeSegmentRecord } from './record-codec';
import type { SegmentRecord } from './segment-files';

const value = JSON.stringify({ type: 'OrderAccepted', note: 'quotes " and \\ and ünïcödé 🚀', qty: '0.001' });

describe('record codec', () => {
  it('round-trips a segment record, with and without headers', () => {
    const withHeaders: SegmentRecord = {
      o: 123_456_789,
      k: 'BTCUSDT',
      v: value,
      h: { 'x-message-id': 'c1:0', 'x-correlation-id': 'é' },
      ts: 1_764_000_000_123,
    };
    const bare: SegmentRecord = { o: 0, k: '', v: '', ts: 0 };
    const large: SegmentRecord = {
      o: Number.MAX_SAFE_INTEGER,
      k: 'k',
      v: 'v',
      h: { 'x-custom': 'own name', 'x-causation-id': 'c' },
      ts: 2 ** 40 + 127,
    };
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

  it('stores a correlation id as 16 bytes and a message id or type that the value repeats as one byte, reading back the same text', () => {
    const envelope = JSON.stringify({
      type: 'SubmitOrder',
      v: 1,
      id: '374947782283265:0',
      ts: 1,
      payload: { note: 'x' },
    });
    const headers = {
      'x-message-id': '374947782283265:0',
      'x-message-type': 'SubmitOrder',
      'x-correlation-id': 'f59811f8-dd0b-4c3a-a0f8-0bb3bb1b7b42',
    };
    const record: SegmentRecord = { o: 1, k: 'BTCUSDT', v: envelope, h: headers, ts: 2 };
    const spelled: SegmentRecord = {
      ...record,
      v: envelope.replace('"id":"', '"ID":"').replace('"type":"', '"TYPE":"'),
    };
    expect(decodeSegmentRecord(encodeSegmentRecord(record))).toEqual(record);
    expect(decodeSegmentRecord(encodeSegmentRecord(spelled))).toEqual(spelled);
    expect(encodeSegmentRecord(spelled).length - encodeSegmentRecord(record).length).toBe(
      '374947782283265:0'.length + 'SubmitOrder'.length + 2,
    );
    const step: JournalEntry = { r: [{ t: 'order.commands', p: 0, k: 'BTCUSDT', v: envelope, h: headers, ts: 2 }] };
    expect(decodeJournalEntry(encodeJournalEntry(step))).toEqual(step);
  });

  it('keeps headers exact where the value only looks like an envelope: uppercase UUIDs, escapes, no id at all', () => {
    const cases: [string, Record<string, string>][] = [
      ['{"id":"a\\"b","type":"T"}', { 'x-message-id': 'a\\"b', 'x-message-type': 'T' }],
      ['{"payload":{"id":"inner"},"id":"outer"}', { 'x-message-id': 'outer' }],
      ['not json', { 'x-correlation-id': 'F59811F8-DD0B-4C3A-A0F8-0BB3BB1B7B42', 'x-message-id': 'id' }],
      ['', { 'x-message-type': '' }],
    ];
    for (const [v, h] of cases) {
      const record: SegmentRecord = { o: 0, k: 'k', v, h, ts: 0 };
      expect(decodeSegmentRecord(encodeSegmentRecord(record))).toEqual(record);
    }
  });

  it('keeps header values exact that are nearly lowercase UUIDs: a dash moved, a non-hex digit, a char more or less', () => {
    const uuid = 'f59811f8-dd0b-4c3a-a0f8-0bb3bb1b7b42';
    const nearly = [
      'f59811f8dd0b-4c3a-a0f8-0bb3bb1b7b42-',
      'f59811f8-dd0b-4c3a-a0f8-0bb3bb1b7b4g',
      'f59811f8-dd0b-4c3a-a0f8-0bb3bb1b7b4',
      `${uuid}0`,
      'f59811f8-dd0b-4c3a-a0f8-0bb3bb1b7B42',
      'f59811f8+dd0b-4c3a-a0f8-0bb3bb1b7b42',
    ];
    for (const value of [uuid, ...nearly]) {
      const record: SegmentRecord = {
        o: 0,
        k: 'k',
        v: '{}',
        h: { 'x-correlation-id': value, 'x-causation-id': uuid },
        ts: 0,
      };
      expect(decodeSegmentRecord(encodeSegmentRecord(record))).toEqual(record);
      const step: JournalEntry = { r: [{ t: 't', p: 0, k: 'k', v: '{}', h: record.h, ts: 0 }] };
      expect(decodeJournalEntry(encodeJournalEntry(step))).toEqual(step);
    }
  });

  it('reads version 2 payloads, whose header values were all plain text', () => {
    // [0x02][offset 5][timestamp 7][key "k"][1 header: x-message-id (1), "m1"][value]
    const segment = Buffer.concat([
      Buffer.from([0x02, 5, 7, 1]),
      Buffer.from('k'),
      Buffer.from([1, 1, 2]),
      Buffer.from('m1'),
      Buffer.from('{"a":1}'),
    ]);
    expect(decodeSegmentRecord(segment)).toEqual({ o: 5, k: 'k', v: '{"a":1}', h: { 'x-message-id': 'm1' }, ts: 7 });
    // [0x02][meta "{}"][1 record: topic "t", partition 0, timestamp 7, key "k", no headers, value "v"]
    const step = Buffer.concat([
      Buffer.from([0x02, 2]),
      Buffer.from('{}'),
      Buffer.from([1, 1]),
      Buffer.from('t'),
      Buffer.from([0, 7, 1]),
      Buffer.from('k'),
      Buffer.from([0, 1]),
      Buffer.from('v'),
    ]);
    expect(decodeJournalEntry(step)).toEqual({ r: [{ t: 't', p: 0, k: 'k', v: 'v', ts: 7 }] });
  });

  it('reads the JSON payloads of earlier versions', () => {
    const record: SegmentRecord = { o: 7, k: 'k', v: value, ts: 9 };
    const entry: JournalEntry = { r: [{ t: 't', p: 1, k: 'k', v: value, ts: 9 }] };
    expect(decodeSegmentRecord(Buffer.from(JSON.stringify(record)))).toEqual(record);
    expect(decodeJournalEntry(Buffer.from(JSON.stringify(entry)))).toEqual(entry);
  });

  it('stores a JSON value without escaping it: smaller than the JSON framing', () => {
    const record: SegmentRecord = {
      o: 1000,
      k: 'BTCUSDT',
      v: value,
      h: { 'x-message-id': 'c1:0' },
      ts: 1_764_000_000_123,
    };
    const json = Buffer.byteLength(JSON.stringify(record));
    expect(encodeSegmentRecord(record).length).toBeLessThan(json - (value.match(/"/g) ?? []).length);
  });
});
