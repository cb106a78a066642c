import { randomUUID } from 'node:crypto';
import { openDataSource } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { realServiceAddress } from '../../../../test/support/real-services';
import { StreamStartReader } from './stream-start-reader';

const url = realServiceAddress('DATABASE_URL', 'the stream-start reader on PostgreSQL');

(url ? describe : describe.skip)('where a stream starts, read from the ledger\'s tables', () => {
  const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let ds: DataSource;
  let reader: StreamStartReader;

  beforeAll(async () => {
    ds = await openDataSource({ url: url!, schema, entities: [], migrations: [] });
    // The columns the reader reads, as the ledger's migration creates them.
    await ds.query(`CREATE TABLE "${schema}".users (user_id bigint PRIMARY KEY, seq integer NOT NULL)`);
    await ds.query(`CREATE TABLE "${schema}".accounts (account_id bigint PRIMARY KEY, user_id bigint NOT NULL, account_type smallint NOT NULL, account_index integer NOT NULL,
      can_trade boolean NOT NULL, can_withdraw boolean NOT NULL, can_deposit boolean NOT NULL)`);
    await ds.query(`INSERT INTO "${schema}".users VALUES (7, 12), (8, 3)`);
    // User 7: main accounts of types 1, 2, 3 (the contracts one may not withdraw), a type-1 and a type-3 sub-account. User 8: another main contracts account.
    await ds.query(`INSERT INTO "${schema}".accounts VALUES
      (100, 7, 1, 0, true, true, true), (101, 7, 2, 0, true, true, true), (102, 7, 3, 0, true, false, true),
      (103, 7, 1, 1, true, true, true), (104, 7, 3, 1, false, true, true), (200, 8, 1, 0, true, true, true), (202, 8, 3, 0, true, true, true)`);
    reader = new StreamStartReader(ds, schema);
  });
  afterAll(async () => {
    await ds.query(`DROP SCHEMA "${schema}" CASCADE`);
    await ds.destroy();
  });

  it('carries the main contracts account on the main account\'s stream, a contracts account on its own, and none on other accounts', async () => {
    const all = { canTrade: true, canWithdraw: true, canDeposit: true };
    expect(await reader.start('100')).toEqual({ userId: '7', seq: 12, flags: all, contracts: { accountId: '102', flags: { ...all, canWithdraw: false } } });
    expect(await reader.start('102')).toEqual({ userId: '7', seq: 12, flags: { ...all, canWithdraw: false }, contracts: { accountId: '102', flags: { ...all, canWithdraw: false } } });
    expect(await reader.start('104')).toMatchObject({ contracts: { accountId: '104', flags: { ...all, canTrade: false } } });
    for (const plain of ['101', '103']) expect(await reader.start(plain)).not.toHaveProperty('contracts');
    expect(await reader.start('999')).toBeUndefined();
  });

  it('reads every account\'s start in one statement, one row per account', async () => {
    const starts = await reader.everyStart();
    expect([...starts.keys()].sort()).toEqual(['100', '101', '102', '103', '104', '200', '202']);
    expect(starts.get('200')?.contracts?.accountId).toBe('202');
  });
});
