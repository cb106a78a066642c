import { type Money, ZERO } from '../ledger-money';
import { isOpening, positionSideOf } from './contract-decision';
import { type ContractsState, totalUncovered } from './contract-state';

const remainingOf = (o: { quantity: string; executedQty: string }) => ZERO.plus(o.quantity).minus(o.executedQty);

/** Every invariant of CONTRACTS.md this slice can state, plus the fold's internal consistency. */
export function checkInvariants(state: ContractsState, credited: Money): void {
  let cash = ZERO;
  for (const [id, b] of state.balances) {
    for (const part of [b.free, b.locked, b.positionMargin])
      if (part.isNegative()) throw new Error(`account ${id}: negative balance part ${part.toFixed()}`);
    cash = cash.plus(b.free).plus(b.locked).plus(b.positionMargin);
  }
  const locked = new Map<string, Money>();
  const claimed = new Map<string, Money>();
  for (const o of state.orders.values()) {
    locked.set(o.accountId, (locked.get(o.accountId) ?? ZERO).plus(o.marginLeft));
    const key = `${o.accountId}|${o.symbol}|${positionSideOf(o.side)}|${isOpening(o.side) ? 'opening' : 'closing'}`;
    claimed.set(key, (claimed.get(key) ?? ZERO).plus(remainingOf(o)));
  }
  // An ADL claims its positions' closing too: what the fund keeps awaiting it, what partitions reserved for it.
  for (const a of state.adlPending.values()) {
    const key = `${a.fundAccountId}|${a.symbol}|${a.side}|closing`;
    claimed.set(key, (claimed.get(key) ?? ZERO).plus(a.quantity));
  }
  for (const r of state.adlReserved.values())
    for (const e of r.entries) {
      const key = `${e.accountId}|${r.symbol}|${r.side}|closing`;
      claimed.set(key, (claimed.get(key) ?? ZERO).plus(e.quantity));
    }
  const sizes = new Map<string, Money>();
  const margins = new Map<string, Money>();
  let openValue = ZERO;
  for (const p of state.positions.values()) {
    for (const part of [p.size, p.closing, p.opening, p.entryValue, p.margin])
      if (part.isNegative()) throw new Error(`${p.accountId} ${p.symbol} ${p.side}: negative ${part.toFixed()}`);
    if (p.closing.gt(p.size))
      throw new Error(
        `${p.accountId} ${p.symbol} ${p.side}: closing ${p.closing.toFixed()} above size ${p.size.toFixed()}`,
      );
    if (p.size.isZero() && !(p.entryValue.isZero() && p.margin.isZero()))
      throw new Error(`${p.accountId} ${p.symbol} ${p.side}: empty but holds value or margin`);
    same(
      `${p.accountId} ${p.symbol} ${p.side} opening`,
      p.opening,
      claimed.get(`${p.accountId}|${p.symbol}|${p.side}|opening`),
    );
    same(
      `${p.accountId} ${p.symbol} ${p.side} closing`,
      p.closing,
      claimed.get(`${p.accountId}|${p.symbol}|${p.side}|closing`),
    );
    const signed = p.side === 'LONG' ? p.size : p.size.negated();
    sizes.set(p.symbol, (sizes.get(p.symbol) ?? ZERO).plus(signed));
    margins.set(p.accountId, (margins.get(p.accountId) ?? ZERO).plus(p.margin));
    openValue = openValue.plus(p.side === 'LONG' ? p.entryValue : p.entryValue.negated());
  }
  for (const [symbol, net] of sizes)
    if (!net.isZero()) throw new Error(`${symbol}: LONG sizes exceed SHORT sizes by ${net.toFixed()}`);
  for (const [id, b] of state.balances) {
    same(`account ${id} locked`, b.locked, locked.get(id));
    same(`account ${id} position margin`, b.positionMargin, margins.get(id));
  }
  // Equity at any common price is conserved: cash plus the open positions' unrealised PnL, which
  // at one price sums to Σ short entry values − Σ long entry values (LONG and SHORT sizes match),
  // less the losses no margin covered (created, and owed by the insurance fund).
  same('equity', cash.minus(openValue).minus(totalUncovered(state)), credited);
}

/** A plain throw rather than expect(): this runs after every step of every seed. */
function same(what: string, actual: Money, expected: Money = ZERO): void {
  if (!actual.eq(expected)) throw new Error(`${what}: ${actual.toFixed()}, expected ${expected.toFixed()}`);
}
