import type { IncomingBatch, IncomingRecord } from '../event-log.port';
import {
  applyIsolatingPoison,
  deadLetterOf,
  isDeterministicFailure,
  type PoisonHandling,
  PoisonRecord,
} from './poison-records';

const pgError = (code: string): Error => Object.assign(new Error(`pg ${code}`), { code });

function batchOf(values: string[]): IncomingBatch {
  const records: IncomingRecord[] = values.map((value, i) => ({
    topic: 't',
    partition: 3,
    offset: 10 + i,
    key: 'k',
    value,
    headers: {},
    timestamp: 0,
  }));
  return { topic: 't', partition: 3, records, nextOffset: 10 + values.length };
}

/** A consumer whose steps fail as `failOn` says, recording every step it commits. */
function consumer(failOn: (values: string[], kind: 'apply' | 'reject') => Error | undefined, rejectable = true) {
  const steps: string[] = [];
  const handling: PoisonHandling = {
    apply: async (records, nextOffset) => {
      const values = records.map((r) => r.value);
      const error = failOn(values, 'apply');
      if (error) throw error;
      steps.push(`apply ${values.join(',')} → ${nextOffset}`);
    },
    reject: async (record, nextOffset) => {
      if (!rejectable) return false;
      const error = failOn([record.value], 'reject');
      if (error) throw error;
      steps.push(`reject ${record.value} → ${nextOffset}`);
      return true;
    },
    park: async (record, nextOffset) => void steps.push(`park ${record.value} → ${nextOffset}`),
    decided: (outcome, record) => void steps.push(`${outcome}: ${record.value}`),
  };
  return { steps, handling };
}

describe('poison records', () => {
  it('tells data-dependent failures from transient ones', () => {
    for (const code of ['22021', '22P05', '22003', '23505', '54000'])
      expect(isDeterministicFailure(pgError(code))).toBe(true);
    for (const code of ['08006', '40001', '53300', '57P01', '42P01'])
      expect(isDeterministicFailure(pgError(code))).toBe(false);
    expect(isDeterministicFailure({ driverError: { code: '22021' } })).toBe(true);
    expect(isDeterministicFailure(new PoisonRecord('not a command'))).toBe(true);
    expect(isDeterministicFailure(new Error('connect ECONNREFUSED'))).toBe(false);
  });

  it('commits a healthy batch as one step', async () => {
    const { steps, handling } = consumer(() => undefined);
    await applyIsolatingPoison(batchOf(['a', 'b']), batchOf(['a', 'b']).records, handling);
    expect(steps).toEqual(['apply a,b → 12']);
  });

  it('isolates the bad record by halves, rejects it, and commits the others up to the batch end', async () => {
    const batch = batchOf(['a', 'bad', 'c']);
    const { steps, handling } = consumer((values, kind) =>
      kind === 'apply' && values.includes('bad') ? pgError('22021') : undefined,
    );
    await applyIsolatingPoison(batch, batch.records, handling);
    expect(steps).toEqual(['apply a → 11', 'reject bad → 12', 'rejected: bad', 'apply c → 13']);
  });

  it('needs a few steps per bad record, not one per record', async () => {
    const values = Array.from({ length: 1000 }, (_, i) => (i === 700 ? 'bad' : `r${i}`));
    const batch = batchOf(values);
    const { steps, handling } = consumer((part, kind) =>
      kind === 'apply' && part.includes('bad') ? pgError('22021') : undefined,
    );
    await applyIsolatingPoison(batch, batch.records, handling);
    expect(steps.filter((s) => s.startsWith('apply')).length).toBeLessThanOrEqual(11);
    expect(steps).toContain('reject bad → 711');
    expect(steps[steps.length - 1]).toMatch(/ → 1010$/);
    const applied = steps.filter((s) => s.startsWith('apply')).flatMap((s) => s.slice(6).split(' → ')[0]!.split(','));
    expect(applied).toEqual(values.filter((v) => v !== 'bad'));
  });

  it('parks what cannot be rejected, or whose rejection fails too', async () => {
    const batch = batchOf(['bad']);
    const notRejectable = consumer(() => new PoisonRecord('not a command'), false);
    await applyIsolatingPoison(batch, batch.records, notRejectable.handling);
    expect(notRejectable.steps).toEqual(['park bad → 11', 'parked: bad']);
    const rejectionFails = consumer(() => pgError('22P05'));
    await applyIsolatingPoison(batch, batch.records, rejectionFails.handling);
    expect(rejectionFails.steps).toEqual(['park bad → 11', 'parked: bad']);
  });

  it('throws a transient failure, in the batch or in isolation, without deciding anything', async () => {
    const batch = batchOf(['a', 'b']);
    const down = consumer(() => pgError('08006'));
    await expect(applyIsolatingPoison(batch, batch.records, down.handling)).rejects.toThrow('pg 08006');
    expect(down.steps).toEqual([]);
    const downMidway = consumer((values) =>
      values.length > 1 ? pgError('22021') : values[0] === 'b' ? pgError('57P01') : undefined,
    );
    await expect(applyIsolatingPoison(batch, batch.records, downMidway.handling)).rejects.toThrow('pg 57P01');
    expect(downMidway.steps).toEqual(['apply a → 11']);
  });

  it('writes a dead letter PostgreSQL can store: value escaped in JSON, key without control characters', () => {
    const record: IncomingRecord = {
      topic: 'ledger.commands',
      partition: 1,
      offset: 7,
      key: 'u\u00001',
      value: '{"a":"\u0000"}',
      headers: { h: 'x' },
      timestamp: 0,
    };
    const letter = deadLetterOf('ledger', record, pgError('22021'));
    expect(letter).toMatchObject({ topic: 'operator.dead-letters', key: 'u1' });
    expect(letter.value).not.toContain('\u0000');
    expect(JSON.parse(letter.value)).toEqual({
      service: 'ledger',
      topic: 'ledger.commands',
      partition: 1,
      offset: 7,
      key: 'u\u00001',
      value: '{"a":"\u0000"}',
      headers: { h: 'x' },
      error: { code: '22021', message: 'pg 22021' },
    });
  });
});
