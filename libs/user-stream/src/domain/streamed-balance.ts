import Decimal from 'decimal.js';
import type { BalanceAfter } from '@exchange/contracts';
import type { BalanceChange } from './stream-frames';

/** A balance as outboundAccountInfo's B carries it: free and locked at the asset's precision, rounded down (never more than the ledger holds). */
export function streamedBalance(
  balance: Pick<BalanceAfter, 'asset' | 'free' | 'locked'>,
  places: number,
): BalanceChange {
  return {
    a: balance.asset,
    f: new Decimal(balance.free).toFixed(places, Decimal.ROUND_DOWN),
    l: new Decimal(balance.locked).toFixed(places, Decimal.ROUND_DOWN),
  };
}
