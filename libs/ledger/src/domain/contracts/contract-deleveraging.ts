import type { ContractConfig, DeleveragedCounterparty, FlowEntry, PositionSide } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import {
  balanceAfter,
  type ContractContext,
  flowEntry,
  ownedBy,
  positionAfter,
  roundDown,
  totalOf,
} from './contract-decision';
import type { ContractDraft } from './contract-draft';
import { type Settled, settleClose, settleFundClose } from './contract-fills';
import { cancelPositionOrders, closeAtBankruptcy } from './contract-liquidation';
import { bankruptcyValue, unrealisedPnl } from './contract-risk';
import { peekContractBalance, positionKey, type PositionState } from './contract-state';

/**
 * Auto-deleveraging: the bankrupt position is closed against opposite positions at its bankruptcy
 * price, most profitable × leverage first (unrealised PnL at the mark × leverage; the fund last,
 * ties by account). Each counterparty closes its share at its share of the bankruptcy value
 * (rounded down, the last takes the rest, so the shares add up to the value exactly), its orders
 * on that side canceled first (while some still rest on the engine's book, nothing is deleveraged
 * yet: a later mark does it); its PnL is a SETTLEMENT flow. LONG and SHORT sizes stay equal.
 * Only positions of the deciding partition are candidates (a decision never writes another
 * partition's accounts); its fund's positions are among them, last.
 */
export function deleverage(
  draft: ContractDraft,
  bankrupt: PositionState,
  config: ContractConfig,
  mark: Money,
  ctx: ContractContext,
): void {
  const fundId = ctx.insurance.accountId;
  const opposite = bankrupt.side === 'LONG' ? 'SHORT' : 'LONG';
  const score = (q: PositionState) =>
    q.accountId === fundId ? null : unrealisedPnl(q, config, mark).times(q.leverage);
  const ranked = [...draft.state.positions.values()]
    .filter((q) => q.symbol === bankrupt.symbol && q.side === opposite && q.size.gt(0) && ownedBy(ctx, q.accountId))
    .map((q) => ({ q, s: score(q) }))
    .sort((a, b) => (a.s === null ? 1 : b.s === null ? -1 : b.s.cmp(a.s)) || (a.q.accountId < b.q.accountId ? -1 : 1))
    .map(({ q }) => q);

  // Whom it takes is known from sizes alone; their orders are canceled before any balance is read.
  const needed: PositionState[] = [];
  for (let covered = ZERO; covered.lt(bankrupt.size) && needed.length < ranked.length;) {
    const q = ranked[needed.length]!;
    needed.push(q);
    covered = covered.plus(q.size);
  }
  // Orders of theirs still on the engine's book could fill after their position shrank: a later mark deleverages.
  const ready = needed.map((q) => cancelPositionOrders(draft, positionKey(q.accountId, q.symbol, q.side), ctx));
  if (!ready.every(Boolean)) return;

  const value = bankruptcyValue(bankrupt);
  const flows: FlowEntry[] = [];
  const user = closeAtBankruptcy(draft.state, bankrupt, config, ctx, flows);
  // In hedge mode the bankrupt account may hold the opposite side too: its balance goes on from the loss.
  const balances = new Map([[bankrupt.accountId, balanceOf(user.balance)]]);
  const counterparties: DeleveragedCounterparty[] = [];
  let [left, valueLeft] = [bankrupt.size, value];
  for (const q of needed) {
    const position = draft.state.positions.get(positionKey(q.accountId, q.symbol, q.side))!;
    const quantity = Money.min(position.size, left);
    const share = quantity.eq(left) ? valueLeft : roundDown(ctx, value.times(quantity).div(bankrupt.size));
    const settle = q.accountId === fundId ? settleFundClose : settleClose;
    const balance = balances.get(q.accountId) ?? peekContractBalance(draft.state, q.accountId);
    const settled = settle(
      { ...position, closing: position.closing.plus(quantity) },
      balance,
      { value: share, quantity, fee: ZERO },
      ctx,
    );
    balances.set(q.accountId, settled.balance);
    const leg = { accountId: q.accountId, side: q.side, quantity, value: share };
    counterparties.push(deleveragedCounterparty(leg, settled, settled.position, flows, config, ctx));
    left = left.minus(quantity);
    valueLeft = valueLeft.minus(share);
  }
  draft.emit({
    type: 'PositionDeleveraged',
    payload: {
      accountId: bankrupt.accountId,
      symbol: bankrupt.symbol,
      side: bankrupt.side,
      markPrice: mark.toFixed(),
      size: bankrupt.size.toFixed(),
      loss: user.loss.toFixed(),
      bankruptcyValue: value.toFixed(),
      position: user.position,
      balance: user.balance,
      counterparties,
      flows,
    },
  });
}

/**
 * One counterparty's closed leg, as deleveraging here and ADL across partitions both record it:
 * its PnL a SETTLEMENT flow (none when zero), its position (as the caller leaves it) and balance after.
 */
export function deleveragedCounterparty(
  leg: { accountId: string; side: PositionSide; quantity: Money; value: Money },
  settled: Settled,
  position: PositionState,
  flows: FlowEntry[],
  config: ContractConfig,
  ctx: ContractContext,
): DeleveragedCounterparty {
  if (!settled.pnl.isZero())
    flows.push(flowEntry(ctx, flows.length, leg.accountId, 'SETTLEMENT', settled.pnl, totalOf(settled.balance)));
  return {
    accountId: leg.accountId,
    side: leg.side,
    quantity: leg.quantity.toFixed(),
    value: leg.value.toFixed(),
    pnl: settled.pnl.toFixed(),
    uncovered: settled.uncovered.toFixed(),
    position: positionAfter(position, config, ctx),
    balance: balanceAfter(leg.accountId, settled.balance),
  };
}

function balanceOf(b: { free: string; locked: string; positionMargin: string }) {
  return { free: new Money(b.free), locked: new Money(b.locked), positionMargin: new Money(b.positionMargin) };
}
