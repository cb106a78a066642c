// The synthetic fills both sides of the benchmark deliver: one TradeSettled per event, for the
// accounts in turn, and the two frames the user stream makes of it (for the bare ceiling).
import type { TradeSettled } from '@exchange/contracts';

export interface BenchAccount {
  userId: string;
  accountId: string;
  listenKey: string;
}

export function tradeSettled(account: BenchAccount, seq: number, n: number, now: number): TradeSettled {
  const order = {
    orderId: String(1_000_000 + n),
    clientOrderId: `bench-${n}`,
    accountId: account.accountId,
    userId: account.userId,
    symbol: 'BTCUSDT',
    side: 'BUY' as const,
    type: 'LIMIT' as const,
    timeInForce: 'GTC' as const,
    price: '60000',
    origQty: '1',
    origQuoteOrderQty: '0',
    executedQty: '0.01',
    cummulativeQuoteQty: '600',
    status: 'PARTIALLY_FILLED' as const,
    isWorking: true,
    time: now,
    updateTime: now,
    reservedAsset: 'USDT',
    reservedAmount: '60000',
    reservationLeft: '59400',
    marketsVersion: 1,
  };
  const trade = { tradeId: String(n + 1), orderId: order.orderId, accountId: account.accountId, symbol: 'BTCUSDT', price: '60000', qty: '0.01', quoteQty: '600', commission: '0.00001', commissionAsset: 'BTC', time: now, isBuyer: true, isMaker: false };
  const balances = [
    { accountId: account.accountId, asset: 'USDT', free: '40000', locked: '59400' },
    { accountId: account.accountId, asset: 'BTC', free: '0.00999', locked: '0' },
  ];
  return { type: 'TradeSettled', v: 1, id: `bench-${n}:0`, ts: now, payload: { userId: account.userId, seq, commandId: `bench-${n}`, trade, order, feeAccountId: '1', flows: [], balances } };
}
