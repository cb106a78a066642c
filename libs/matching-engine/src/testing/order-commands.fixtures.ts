import type { CancelOrder, Markets, OrderCommand, SetSymbolStatus, SubmitOrder } from '@exchange/contracts';
import type { EngineCommand } from '../domain';
import { randomCommands } from '../domain/testing/random-commands';
import { SymbolUnits } from '../books/symbol-units';
import { testMarkets } from './engine-harness';

export const T0 = 1_700_000_000_000;

type SubmitTerms = Pick<SubmitOrder['payload'], 'symbol' | 'orderId' | 'accountId' | 'userId' | 'side' | 'type'> &
  Partial<SubmitOrder['payload']>;

export function submit(id: string, terms: SubmitTerms, ts = T0): SubmitOrder {
  return {
    type: 'SubmitOrder',
    v: 1,
    id,
    ts,
    payload: { clientOrderId: `c-${terms.orderId}`, timeInForce: 'GTC', marketsVersion: 1, ...terms },
  };
}

export function cancel(id: string, payload: CancelOrder['payload'], ts = T0): CancelOrder {
  return { type: 'CancelOrder', v: 1, id, ts, payload };
}

export function setStatus(id: string, payload: SetSymbolStatus['payload'], ts = T0): SetSymbolStatus {
  return { type: 'SetSymbolStatus', v: 1, id, ts, payload };
}

/**
 * The domain's seeded random command stream for one symbol, as contract commands in that
 * symbol's decimals: crossing, partial fills, self-trade prevention, FOK, cancels of live and
 * finished orders, duplicate order ids, invalid orders and halts all happen.
 */
export function randomOrderCommands(
  symbol: string,
  seed: number,
  count: number,
  orderIdBase: number,
  markets: Markets = testMarkets,
): OrderCommand[] {
  const config = markets.book(symbol)!;
  const units = new SymbolUnits(config.tickSize, config.stepSize);
  // Cancels come from the order's owner when it is known (the stream also cancels unknown ids).
  const owners = new Map<number, number>();
  return randomCommands(seed, count).map((c, i) => {
    if (c.kind === 'PlaceOrder' && !owners.has(c.orderId)) owners.set(c.orderId, c.ownerId);
    return toContract(
      c,
      `${symbol}-${seed}-${i}`,
      symbol,
      units,
      orderIdBase,
      c.kind === 'CancelOrder' ? (owners.get(c.orderId) ?? 1) : 0,
    );
  });
}

function toContract(
  c: EngineCommand,
  id: string,
  symbol: string,
  units: SymbolUnits,
  orderIdBase: number,
  cancelOwner: number,
): OrderCommand {
  switch (c.kind) {
    case 'SetSymbolStatus':
      return setStatus(id, { symbol, status: c.status }, c.ts);
    case 'CancelOrder':
      return cancel(
        id,
        {
          symbol,
          orderId: String(orderIdBase + c.orderId),
          accountId: String(cancelOwner),
          userId: String(1000 + cancelOwner),
        },
        c.ts,
      );
    case 'PlaceOrder': {
      const payload: SubmitTerms = {
        symbol,
        orderId: String(orderIdBase + c.orderId),
        accountId: String(c.ownerId),
        userId: String(1000 + c.ownerId),
        side: c.side,
        type: c.type,
        timeInForce: c.timeInForce,
      };
      if (c.priceTicks !== undefined) payload.price = units.ticksToPrice(c.priceTicks);
      if (c.qtyLots !== undefined) payload.quantity = units.lotsToQty(c.qtyLots);
      if (c.quoteBudget !== undefined) payload.quoteAmount = units.notionalToQuote(c.quoteBudget);
      return submit(id, payload, c.ts);
    }
  }
}
