import { Client } from 'pg';
import { QueryFailedError } from 'typeorm';
import { toApiError } from './to-api-error';

const answer = (error: unknown) => {
  const e = toApiError(error, 'GET', '/openapi/v1/account');
  return { status: e.httpStatus, ...e.toBody() };
};
const unavailable = { status: 503, code: -1016, msg: 'The exchange is unavailable right now; try again shortly.' };

describe('toApiError', () => {
  it('answers 503 / -1016 when PostgreSQL cannot be reached, with the error the driver really throws', async () => {
    const client = new Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(answer(refused)).toEqual(unavailable);
  });

  it('answers 503 / -1016 when PostgreSQL is full, shutting down or dropped the connection, and when the event log cannot append', () => {
    const diskFull = Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
    expect(answer(new QueryFailedError('INSERT …', [], diskFull))).toEqual(unavailable);
    expect(
      answer(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
    ).toEqual(unavailable);
    expect(answer(new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')))).toEqual(
      unavailable,
    );
    expect(
      answer(
        Object.assign(new Error('event log: the journal cannot be written (ENOSPC)'), {
          code: 'EVENT_LOG_UNAVAILABLE',
        }),
      ),
    ).toEqual(unavailable);
    expect(
      answer(
        Object.assign(new Error('write failed'), { cause: Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) }),
      ),
    ).toEqual(unavailable);
  });

  it('still answers -1001 for what is a bug, not an outage (a constraint violated, a plain error)', () => {
    const unique = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    expect(answer(new QueryFailedError('INSERT …', [], unique))).toMatchObject({ status: 500, code: -1001 });
    expect(answer(new Error('boom'))).toMatchObject({ status: 500, code: -1001 });
  });
});
