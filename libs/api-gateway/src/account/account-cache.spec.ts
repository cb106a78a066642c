import type { LedgerEvent } from '@exchange/contracts';
import { AccountCache } from './account-cache';
import type { AccountRow, LedgerReader } from '@exchange/ledger-query';

const account: AccountRow = {
  accountId: '7',
  userId: '3',
  accountType: 1,
  accountIndex: 0,
  accountName: '',
  canTrade: true,
  canWithdraw: true,
  canDeposit: true,
};

function readerAt(seq: number, free: string): LedgerReader {
  return {
    accountWithBalances: async () => ({ account, balances: new Map([['BTC', { free, locked: '0' }]]), seq }),
  } as unknown as LedgerReader;
}

function deposit(seq: number, free: string): LedgerEvent {
  return {
    type: 'DepositCredited',
    v: 1,
    id: `c${seq}:0`,
    ts: 0,
    payload: {
      userId: '3',
      seq,
      commandId: `c${seq}`,
      depositId: '1',
      accountId: '7',
      asset: 'BTC',
      amount: '1',
      flows: [],
      balances: [{ accountId: '7', asset: 'BTC', free, locked: '0' }],
    },
  };
}

function tradingStopped(seq: number): LedgerEvent {
  return {
    type: 'AccountFlagsSet',
    v: 1,
    id: `f${seq}`,
    ts: 0,
    payload: {
      userId: '3',
      seq,
      commandId: `f${seq}`,
      accountId: '7',
      canTrade: false,
      canWithdraw: true,
      canDeposit: true,
    },
  };
}

describe('AccountCache', () => {
  it("loads once, then follows the ledger's events in sequence order", async () => {
    const cache = new AccountCache(readerAt(5, '10'));
    expect((await cache.get('7'))?.balances.get('BTC')?.free).toBe('10');
    cache.apply(deposit(6, '11'));
    expect((await cache.get('7'))?.balances.get('BTC')?.free).toBe('11');
    cache.apply(deposit(6, '99'));
    cache.apply(deposit(4, '98'));
    expect((await cache.get('7'))?.balances.get('BTC')?.free).toBe('11');
  });

  it('forgets the rendered view on change', async () => {
    const cache = new AccountCache(readerAt(1, '1'));
    const entry = await cache.get('7');
    expect(entry?.balances.get('BTC')?.free).toBe('1');
    entry!.rendered = ['stale'];
    cache.apply(deposit(2, '2'));
    expect(entry!.rendered).toBeUndefined();
    expect((await cache.get('7'))?.balances.get('BTC')?.free).toBe('2');
  });

  it("forgets the rendered answer when the account's balances or flags change", async () => {
    const cache = new AccountCache(readerAt(1, '1'));
    const entry = (await cache.get('7'))!;
    entry.answer = 'stale';
    cache.apply(deposit(2, '2'));
    expect(entry.answer).toBeUndefined();
    entry.answer = 'stale';
    cache.apply(tradingStopped(3));
    expect(entry.answer).toBeUndefined();
  });

  it('does not keep a load from tables that lag an event it already saw: the next read loads again', async () => {
    let tables = { seq: 1, free: '1' };
    const reader = {
      accountWithBalances: async () => ({
        account,
        balances: new Map([['BTC', { free: tables.free, locked: '0' }]]),
        seq: tables.seq,
      }),
    } as unknown as LedgerReader;
    const cache = new AccountCache(reader);
    // The credit's event reaches the gateway before the projection has written it.
    cache.apply(deposit(2, '2'));
    expect((await cache.get('7'))?.balances.get('BTC')?.free).toBe('1');
    tables = { seq: 2, free: '2' };
    expect((await cache.get('7'))?.balances.get('BTC')?.free).toBe('2');
    expect(cache.size).toBe(1);
  });

  it('applies flags with the same ordering', async () => {
    const cache = new AccountCache(readerAt(1, '1'));
    await cache.get('7');
    cache.apply(tradingStopped(2));
    expect((await cache.get('7'))?.account.canTrade).toBe(false);
  });

  it('holds at most its configured number of accounts and reads an evicted one again', async () => {
    let reads = 0;
    const reader = {
      accountWithBalances: async (accountId: string) => {
        reads++;
        return {
          account: { ...account, accountId, userId: `u${accountId}` },
          balances: new Map([['BTC', { free: '1', locked: '0' }]]),
          seq: 1,
        };
      },
    } as unknown as LedgerReader;
    const cache = new AccountCache(reader, 100);
    for (let i = 0; i < 1000; i++) await cache.get(String(i));
    expect(cache.size).toBe(100);
    expect(reads).toBe(1000);
    await cache.get('999');
    expect(reads).toBe(1000);
    await cache.get('0');
    expect(reads).toBe(1001);
    expect((await cache.get('0'))?.account.accountId).toBe('0');
  });
});
