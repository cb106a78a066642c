import type { ContractConfig } from '@exchange/contracts';
import { Money, ZERO } from '../ledger-money';
import type { PositionState } from './contract-state';

/**
 * The maintenance-margin arithmetic of CONTRACTS.md, exact: S = size × multiplier (the position's
 * quantity of the index asset), E its entry value, M its margin, m its tier's maintenance rate.
 *   maintenance margin at mark P:  P × S × m
 *   LONG  liquidates when M + P·S − E ≤ P·S·m, i.e. P ≤ (E − M) / (S (1 − m))
 *   SHORT liquidates when M + E − P·S ≤ P·S·m, i.e. P ≥ (E + M) / (S (1 + m))
 *   bankruptcy (M + PnL = 0):  P·S = E − M (LONG), E + M (SHORT); the value is exact, P need not be.
 */
export function maintenanceRateOf(config: ContractConfig, size: Money): Money {
  const tier = config.riskLimits.find((t) => size.lte(t.quantity)) ?? config.riskLimits[config.riskLimits.length - 1]!;
  return new Money(tier.maintMargin);
}

export function unrealisedPnl(p: PositionState, config: ContractConfig, mark: Money): Money {
  const markValue = mark.times(p.size).times(config.contractMultiplier);
  return p.side === 'LONG' ? markValue.minus(p.entryValue) : p.entryValue.minus(markValue);
}

/** Whether margin + unrealised PnL at this mark has fallen to the maintenance margin. */
export function pastMaintenance(p: PositionState, config: ContractConfig, mark: Money): boolean {
  if (p.size.isZero()) return false;
  const maintenance = mark.times(p.size).times(config.contractMultiplier).times(maintenanceRateOf(config, p.size));
  return p.margin.plus(unrealisedPnl(p, config, mark)).lte(maintenance);
}

/**
 * The liquidation price at `decimals`, rounded towards the mark (LONG up, SHORT down), so the
 * index never finds a position later than the exact rule would; the decider checks the exact rule.
 * ZERO when nothing liquidates the position (empty, or a LONG whose margin covers its entry value).
 */
export function liquidationPrice(p: PositionState, config: ContractConfig, decimals: number): Money {
  if (p.size.isZero()) return ZERO;
  const quantity = p.size.times(config.contractMultiplier);
  const m = maintenanceRateOf(config, p.size);
  if (p.side === 'LONG') {
    const price = p.entryValue.minus(p.margin).div(quantity.times(new Money(1).minus(m)));
    return price.lte(0) ? ZERO : price.toDecimalPlaces(decimals, Money.ROUND_UP);
  }
  return p.entryValue
    .plus(p.margin)
    .div(quantity.times(new Money(1).plus(m)))
    .toDecimalPlaces(decimals, Money.ROUND_DOWN);
}

/** What the position is worth at its bankruptcy price: where the holder has lost exactly its margin. */
export function bankruptcyValue(p: PositionState): Money {
  return p.side === 'LONG' ? p.entryValue.minus(p.margin) : p.entryValue.plus(p.margin);
}
