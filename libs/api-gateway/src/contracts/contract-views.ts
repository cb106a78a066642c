import Decimal from 'decimal.js';
import type { ContractConfig, ContractOrderRecord, ContractTradeRecord, PositionAfter } from '@exchange/contracts';
import type { ContractOrderRow } from '@exchange/ledger-query';

/** BHEx's contract order record (CONTRACTS.md, Orders): every number a string. */
export interface ContractOrderView {
  time: string;
  updateTime: string;
  orderId: string;
  clientOrderId: string;
  symbol: string;
  price: string;
  leverage: string;
  origQty: string;
  executedQty: string;
  avgPrice: string;
  marginLocked: string;
  orderType: string;
  priceType: string;
  side: string;
  status: string;
  timeInForce: string;
  fees: { feeToken: string; fee: string }[];
}

/** An order with what its trades add up to: Σ fee, Σ price × quantity, Σ quantity. */
export function contractOrderView(
  o: ContractOrderRecord,
  updateTime: number,
  trades: { fees: string; value: string; filled: string },
): ContractOrderView {
  const filled = new Decimal(trades.filled);
  return {
    time: String(o.time),
    updateTime: String(updateTime),
    orderId: o.orderId,
    clientOrderId: o.clientOrderId ?? '',
    symbol: o.symbol,
    price: o.price,
    leverage: o.leverage,
    origQty: o.quantity,
    executedQty: o.executedQty,
    avgPrice: filled.isZero()
      ? '0'
      : new Decimal(trades.value).div(filled).toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed(),
    marginLocked: o.marginLocked,
    orderType: o.orderType,
    priceType: o.priceType ?? 'INPUT',
    side: o.side,
    status: o.status,
    timeInForce: o.timeInForce ?? 'GTC',
    fees: new Decimal(trades.fees).isZero() ? [] : [{ feeToken: 'USDT', fee: new Decimal(trades.fees).toFixed() }],
  };
}

export function contractOrderRowView(row: ContractOrderRow): ContractOrderView {
  return contractOrderView(row.record, row.updateTime, row);
}

/** myTrades' record (CONTRACTS.md): matchOrderId is the other side's order, "0" for trades settled before legs named it. */
export function contractTradeView(t: ContractTradeRecord): Record<string, unknown> {
  return {
    time: String(t.time),
    tradeId: t.tradeId,
    orderId: t.orderId,
    matchOrderId: t.matchOrderId ?? '0',
    symbolId: t.symbol,
    price: t.price,
    quantity: t.quantity,
    feeTokenId: t.feeToken,
    fee: t.fee,
    side: t.side,
    orderType: 'LIMIT',
    isMaker: t.isMaker,
    pnl: t.pnl,
  };
}

/**
 * A position as `positions` lists it: unrealised PnL, margin rate and profit rate at the mark price
 * the ledger last consumed (CONTRACTS.md: never the last trade), the entry price until one has
 * reached it; lastPrice is the last trade's.
 */
export function positionView(
  p: PositionAfter,
  contract: ContractConfig,
  prices: { lastPrice?: string; markPrice?: string },
): Record<string, string> {
  const mark = new Decimal(prices.markPrice ?? p.avgPrice);
  const value = mark.times(p.size).times(contract.contractMultiplier);
  const unrealised = p.side === 'LONG' ? value.minus(p.entryValue) : new Decimal(p.entryValue).minus(value);
  const margin = new Decimal(p.margin);
  const ratio = (n: Decimal, d: Decimal) =>
    d.isZero() ? '0' : n.div(d).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed();
  return {
    symbol: p.symbol,
    side: p.side,
    avgPrice: p.avgPrice,
    position: p.size,
    available: p.available,
    leverage: p.leverage,
    lastPrice: prices.lastPrice ?? '0',
    markPrice: mark.toFixed(),
    positionValue: value.toFixed(),
    flp: p.flp,
    margin: p.margin,
    marginRate: ratio(margin.plus(unrealised), value),
    unrealizedPnL: unrealised.toFixed(),
    profitRate: ratio(unrealised, margin),
    realizedPnL: p.realizedPnl,
  };
}
