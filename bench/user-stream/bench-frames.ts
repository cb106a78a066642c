// The synthetic fills both sides of the benchmark deliver: one TradeSettled per event, for the
// accounts in turn (each of the account's one order, placed first), and the two frames the user stream makes of it (for the bare ceiling).
import type { OrderPlaced, TradeSettled } from '@exchange/contracts';

export interface BenchAccount {
  userId: string;
  accountId: string;
  listenKey: string;
}

/** Each account's one order, placed before the bursts (the stream keeps it: the fills say only what they moved). */
export function orderPlaced(account: BenchAccount, seq: number, now: number): OrderPlaced {
  const order = {
    orderId: orderIdOf(account),
    clientOrderId: `bench-${account.accountId}`,
    accountId: account.accountId,
    symbol: 'BTCUSDT',
    side: 'BUY' as const,
    type: 'LIMIT' as const,
    timeInForce: 'GTC' as const,
    price: '60000',
    origQty: '1000000',
    origQuoteOrderQty: '0',
    reservedAsset: 'USDT',
    reservedAmount: '60000000000',
    marketsVersion: 1,
  };
  return {
    type: 'OrderPlaced',
    v: 2,
    id: `bench-place-${account.accountId}:0`,
    ts: now,
    payload: { userId: account.userId, seq, commandId: `bench-place-${account.accountId}`, order, balances: [] },
  };
}

/** The n-th fill, of the account's order (so large that it never fills up). */
export function tradeSettled(account: BenchAccount, seq: number, n: number, now: number): TradeSettled {
  const orderId = orderIdOf(account);
  const order = {
    orderId,
    executedQty: '0.01',
    cummulativeQuoteQty: '600',
    status: 'PARTIALLY_FILLED' as const,
    reservationLeft: '59400',
  };
  const trade = {
    tradeId: String(n + 1),
    orderId,
    accountId: account.accountId,
    symbol: 'BTCUSDT',
    price: '60000',
    qty: '0.01',
    quoteQty: '600',
    commission: '0.00001',
    commissionAsset: 'BTC',
    time: now,
    isBuyer: true,
    isMaker: false,
  };
  const balances = [
    { accountId: account.accountId, asset: 'USDT', free: '40000', locked: '59400' },
    { accountId: account.accountId, asset: 'BTC', free: '0.00999', locked: '0' },
  ];
  return {
    type: 'TradeSettled',
    v: 2,
    id: `bench-${n}:0`,
    ts: now,
    payload: {
      userId: account.userId,
      seq,
      commandId: `bench-${n}`,
      trade,
      order,
      feeAccountId: '1',
      firstFlowId: String(n + 1),
      balances,
    },
  };
}

function orderIdOf(account: BenchAccount): string {
  return String(1_000_000 + (Number(account.accountId) % 1_000_000));
}
