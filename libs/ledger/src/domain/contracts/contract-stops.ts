import type { ContractEvent, ContractOrderRecord, TriggerContractStops } from '@exchange/contracts';
import { Money } from '../ledger-money';
import { LedgerRejection, RejectCode } from '../ledger-rejection';
import { type ContractContext, ownedBy, requireContract } from './contract-decision';
import type { ContractsState } from './contract-state';

/**
 * A new last price releases the STOP orders it crosses, BUY_* stops at or below it and SELL_* stops
 * at or above it (a stop buys on the way up and sells on the way down), found in the stop index
 * without reading the stops it does not cross. Each becomes the LIMIT order it describes, with
 * what it locked at submission; the engine receives it from here on. Released in order of id, so
 * two replicas send them in the same order.
 */
export function triggerContractStops(
  command: TriggerContractStops,
  state: ContractsState,
  ctx: ContractContext,
): ContractEvent[] {
  const p = command.payload;
  requireContract(ctx, p.symbol);
  const last = new Money(p.lastPrice);
  if (last.lte(0))
    throw new LedgerRejection(
      RejectCode.INVALID_VALUE,
      "Invalid value for parameter 'lastPrice': must be greater than zero.",
    );
  const crossed = ['BUY', 'SELL'].flatMap((side) => state.stops.get(`${p.symbol}|${side}`)?.crossed(last) ?? []);
  const orders = crossed
    .map((id) => state.orders.get(id)!)
    .filter((o) => ownedBy(ctx, o.accountId))
    .sort(byId);
  return orders.map((order) => ({
    type: 'ContractStopTriggered',
    payload: {
      accountId: order.accountId,
      symbol: order.symbol,
      lastPrice: last.toFixed(),
      order: { ...order, orderType: 'LIMIT' },
    },
  }));
}

function byId(a: ContractOrderRecord, b: ContractOrderRecord): number {
  return a.orderId.length - b.orderId.length || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0);
}
