import { ledgerCommand as cmd, ledgerJournal, ReadModelSchema, T0 } from '../../../../test/support/read-model-schema';
import { LedgerReader } from './ledger-reader';

/** The ledger's migrations, its projection of decided events and LedgerReader, together on PostgreSQL. */
describe('LedgerReader on the tables the ledger projects', () => {
  let tables: ReadModelSchema;
  let reader: LedgerReader;

  beforeAll(async () => {
    tables = await ReadModelSchema.open('ledger');
    reader = new LedgerReader(tables.queries);
    await tables.projectLedger(
      ledgerJournal([
        cmd('CreateUser', { userId: '100', name: 'alice', accountIds: ['1001', '1002', '1003'] }),
        cmd('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] }),
        cmd('CreateSubAccount', { userId: '100', accountId: '1011', accountType: 1, accountName: 'bot' }),
        cmd('SetAccountFlags', { userId: '100', accountId: '1011', canWithdraw: false }),
        cmd('CreateApiKey', {
          userId: '100',
          accountId: '1001',
          apiKey: 'k1',
          secretCiphertext: 'sealed-1',
          permissions: ['read', 'trade'],
        }),
        cmd('CreateApiKey', {
          userId: '100',
          accountId: '1001',
          apiKey: 'k2',
          secretCiphertext: 'sealed-2',
          permissions: ['read'],
        }),
        cmd('RevokeApiKey', { userId: '100', apiKey: 'k2' }),
        cmd('CreditDeposit', { userId: '100', accountId: '1001', depositId: '1', asset: 'USDT', amount: '100.5' }),
        cmd('CreditDeposit', { userId: '100', accountId: '1001', depositId: '2', asset: 'BTC', amount: '1' }),
        cmd('TransferFunds', {
          userId: '100',
          transferId: '3',
          fromAccountId: '1001',
          toAccountId: '1011',
          asset: 'USDT',
          amount: '0.5',
        }),
      ]),
    );
  });
  afterAll(async () => tables.close());

  it('reads an account with its flags, and every account of a user by type and index', async () => {
    expect(await reader.account('1011')).toEqual({
      accountId: '1011',
      userId: '100',
      accountType: 1,
      accountIndex: 1,
      accountName: 'bot',
      canTrade: true,
      canWithdraw: false,
      canDeposit: true,
    });
    expect((await reader.accountsOfUser('100')).map((a) => a.accountId)).toEqual(['1001', '1011', '1002', '1003']);
    expect(await reader.account('999')).toBeUndefined();
  });

  it("reads an account, its balances and its user's sequence in one snapshot", async () => {
    const read = await reader.accountWithBalances('1001');
    expect(read?.seq).toBe(9); // alice's nine commands, one event each
    expect(Object.fromEntries(read!.balances)).toEqual({
      USDT: { free: '100', locked: '0' },
      BTC: { free: '1', locked: '0' },
    });
    expect((await reader.accountWithBalances('2001'))?.balances.size).toBe(0);
  });

  it('reads API keys: one by key (revoked or not), the live ones of an account', async () => {
    expect(await reader.apiKey('k2')).toEqual({
      apiKey: 'k2',
      accountId: '1001',
      userId: '100',
      permissions: ['read'],
      secretCiphertext: 'sealed-2',
      created: T0 + 5,
      revoked: true,
    });
    expect((await reader.apiKeysOf('1001')).map((k) => [k.apiKey, k.revoked])).toEqual([['k1', false]]);
    expect(await reader.apiKey('nope')).toBeUndefined();
  });

  it('lists the newest users first with their accounts, and knows who exists', async () => {
    const users = await reader.users(10);
    expect(users.map((u) => [u.userId, u.name, u.accounts.length])).toEqual([
      ['200', 'bob', 3],
      ['100', 'alice', 4],
    ]);
    expect(await reader.userExists('200')).toBe(true);
    expect(await reader.userExists('300')).toBe(false);
  });

  it('pages the balance flow newest first, by asset, id and time', async () => {
    const all = await reader.flows({ accountId: '1001', limit: 10 });
    expect(all.map((f) => [f.asset, f.flowType, f.change, f.total])).toEqual([
      ['USDT', 'USER_ACCOUNT_TRANSFER', '-0.5', '100'],
      ['BTC', 'DEPOSIT', '1', '1'],
      ['USDT', 'DEPOSIT', '100.5', '100.5'],
    ]);
    expect((await reader.flows({ accountId: '1001', asset: 'USDT', limit: 10 })).length).toBe(2);
    expect(await reader.flows({ accountId: '1001', fromFlowId: all[0]!.flowId, limit: 10 })).toEqual(all.slice(1));
    expect(await reader.flows({ accountId: '1001', endFlowId: all[2]!.flowId, limit: 1 })).toEqual(all.slice(0, 1));
    expect(
      await reader.flows({ accountId: '1001', startTime: all[1]!.created, endTime: all[1]!.created, limit: 10 }),
    ).toEqual([all[1]]);
  });
});
