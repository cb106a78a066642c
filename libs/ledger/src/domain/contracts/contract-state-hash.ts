import { createHash } from 'node:crypto';
import type { ContractsState } from './contract-state';

/**
 * A digest of the contracts fold, independent of insertion order: a replay must reproduce it. The
 * price indexes are derived from positions and orders (flp and triggerPrice are hashed with them).
 */
export function contractsStateHash(state: ContractsState): string {
  const hash = createHash('sha256');
  for (const id of [...state.balances.keys()].sort()) {
    const b = state.balances.get(id)!;
    hash.update(`b|${id}|${b.free.toFixed()}|${b.locked.toFixed()}|${b.positionMargin.toFixed()}\n`);
  }
  for (const key of [...state.positions.keys()].sort()) {
    const p = state.positions.get(key)!;
    hash.update(
      `p|${key}|${p.size.toFixed()}|${p.closing.toFixed()}|${p.opening.toFixed()}|${p.entryValue.toFixed()}|${p.margin.toFixed()}|${p.realizedPnl.toFixed()}|${p.leverage.toFixed()}|${p.flp.toFixed()}\n`,
    );
  }
  for (const id of [...state.orders.keys()].sort()) {
    const o = state.orders.get(id)!;
    hash.update(
      `o|${id}|${o.accountId}|${o.symbol}|${o.side}|${o.price}|${o.quantity}|${o.leverage}|${o.executedQty}|${o.marginLocked}|${o.marginLeft}|${o.status}|${o.time}|${o.marketsVersion}`,
    );
    hash.update(
      `|${o.orderType}|${o.triggerPrice ?? ''}|${o.timeInForce ?? ''}|${o.clientOrderId ?? ''}|${o.priceType ?? ''}${o.cancelRequested ? '|cancel-requested' : ''}${o.cancelReason ? `|${o.cancelReason}` : ''}\n`,
    );
  }
  for (const symbol of [...state.fundings.keys()].sort()) hash.update(`f|${symbol}|${state.fundings.get(symbol)}\n`);
  for (const key of [...state.fundingCursors.keys()].sort()) {
    const c = state.fundingCursors.get(key)!;
    hash.update(`fc|${key}|${c.after}|${c.part}\n`);
  }
  for (const key of [...state.marks.keys()].sort()) hash.update(`m|${key}|${state.marks.get(key)!.toFixed()}\n`);
  for (const id of [...state.uncovered.keys()].sort()) hash.update(`u|${id}|${state.uncovered.get(id)!.toFixed()}\n`);
  for (const id of [...state.adlPending.keys()].sort()) {
    const a = state.adlPending.get(id)!;
    const offers = a.offers.map((o) => `${o.partition}:${o.accountId}:${o.score.toFixed()}:${o.quantity.toFixed()}`);
    hash.update(
      `adl|${id}|${a.fundAccountId}|${a.symbol}|${a.side}|${a.quantity.toFixed()}|${a.value.toFixed()}|${a.mark.toFixed()}|${a.round}|${a.contended}|${a.awaiting.join(',')}|${offers.join(',')}\n`,
    );
  }
  for (const key of [...state.adlReserved.keys()].sort()) {
    const r = state.adlReserved.get(key)!;
    const entries = r.entries.map((e) => `${e.accountId}:${e.quantity.toFixed()}`);
    hash.update(`adlr|${key}|${r.symbol}|${r.side}|${entries.join(',')}\n`);
  }
  // Derived, but hashed so that every path that loads a state (snapshot, tables, replay) must keep it in step.
  for (const accountId of [...state.accountPositions.keys()].sort())
    for (const key of [...state.accountPositions.get(accountId)!].sort()) hash.update(`ap|${accountId}|${key}\n`);
  return hash.digest('hex');
}
