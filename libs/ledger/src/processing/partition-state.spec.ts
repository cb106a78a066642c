import type { LedgerCommand } from '@exchange/contracts';
import { ProcessedIds } from '@exchange/messaging';
import { decide, type TradingContext } from '../domain/decide';
import { evolve, initialLedgerState, type LedgerState } from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { capturePartition, forgetPartition, type PartitionScope, restorePartition } from './partition-state';
import { assets, btcusdt } from '../domain/spot-market.fixtures';

/** Two partitions by the parity of the user id, each with its fee account. */
const partitionOf = (userId: string): number => Number(userId) % 2;
const scopeOf = (partition: number): PartitionScope => ({
  partition,
  partitionOf,
  feeAccountId: `900000000${partition}`,
});

function journaled(): LedgerState {
  const state = initialLedgerState();
  let n = 0;
  const send = (type: LedgerCommand['type'], payload: object): void => {
    const command = { type, v: 1, id: `c${++n}`, ts: 1_700_000_000_000 + n, payload } as LedgerCommand;
    const userId = (payload as { userId: string }).userId;
    const ctx: TradingContext = {
      now: command.ts,
      flowId: (k) => String(n * 16 + k + 1),
      asset: (a) => assets[a],
      symbol: () => btcusdt,
      feeAccountId: scopeOf(partitionOf(userId)).feeAccountId,
    };
    for (const e of decide(command, state, ctx)) evolve(state, e);
  };
  for (const userId of ['10', '11', '12', '13']) {
    send('CreateUser', { userId, name: `user ${userId} ✓ 𝔘`, accountIds: [`${userId}1`, `${userId}2`, `${userId}3`] });
    send('CreditDeposit', { userId, accountId: `${userId}1`, depositId: String(++n), asset: 'USDT', amount: '1000' });
    send('CreditDeposit', { userId, accountId: `${userId}1`, depositId: String(++n), asset: 'BTC', amount: '2' });
    send('TransferFunds', {
      userId,
      transferId: String(++n),
      fromAccountId: `${userId}1`,
      toAccountId: `${userId}2`,
      asset: 'USDT',
      amount: '1.5',
    });
  }
  send('PlaceOrder', {
    userId: '10',
    accountId: '101',
    orderId: '501',
    clientOrderId: 'b',
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '100',
    quantity: '1',
    marketsVersion: 1,
  });
  send('PlaceOrder', {
    userId: '11',
    accountId: '111',
    orderId: '502',
    clientOrderId: 's',
    symbol: 'BTCUSDT',
    side: 'SELL',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '100',
    quantity: '1',
    marketsVersion: 1,
  });
  for (const [orderId, accountId, userId, side, isMaker] of [
    ['501', '101', '10', 'BUY', true],
    ['502', '111', '11', 'SELL', false],
  ] as const) {
    send('SettleTradeLeg', {
      tradeId: '1',
      symbol: 'BTCUSDT',
      orderId,
      accountId,
      userId,
      side,
      price: '100',
      qty: '0.4',
      quoteQty: '40',
      isMaker,
    });
  }
  return state;
}

describe('a partition of the ledger state, as a snapshot holds it', () => {
  it('restores each partition to the same fold, through JSON, with the fee accounts where they belong', () => {
    const live = journaled();
    const restored = initialLedgerState();
    for (const partition of [0, 1]) {
      const captured = JSON.parse(JSON.stringify(capturePartition(live, scopeOf(partition), [['c1', 5]])));
      restorePartition(restored, captured);
    }
    expect(live.accounts.has('9000000000') && live.accounts.has('9000000001')).toBe(true);
    expect(ledgerStateHash(restored)).toBe(ledgerStateHash(live));
  });

  it('forgets one partition and nothing else, and puts it back exactly', () => {
    const live = journaled();
    const before = ledgerStateHash(live);
    const captured = capturePartition(live, scopeOf(1), []);
    forgetPartition(live, scopeOf(1));
    expect([...live.users.keys()].sort()).toEqual(['10', '12']);
    expect(live.accounts.has('9000000001')).toBe(false);
    expect(live.accounts.has('9000000000')).toBe(true);
    expect([...live.orders.keys()]).toEqual(['501']);
    restorePartition(live, captured);
    expect(ledgerStateHash(live)).toBe(before);
  });

  it('keeps the processed command ids of the window, oldest first', () => {
    const processed = new ProcessedIds();
    processed.add('a', 1);
    processed.add('b', 2);
    expect(capturePartition(initialLedgerState(), scopeOf(0), processed.entries()).processed).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });
});
