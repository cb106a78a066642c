import { createHash } from 'node:crypto';
import type { ContractPriceState } from './contract-price-fold';

/** A digest of the prices fold, independent of insertion order: replicas and replays compare it. */
export function contractPriceStateHash(state: ContractPriceState): string {
  const hash = createHash('sha256');
  const text = (d: { toFixed(): string } | undefined) => d?.toFixed() ?? '';
  hash.update(`t|${state.at}\n`);
  for (const symbol of [...state.spot.keys()].sort()) {
    const q = state.spot.get(symbol)!;
    hash.update(`s|${symbol}|${text(q.bid)}|${text(q.ask)}|${text(q.last)}\n`);
  }
  for (const index of [...state.external.keys()].sort())
    hash.update(`e|${index}|${state.external.get(index)!.toFixed()}\n`);
  for (const symbol of [...state.contracts.keys()].sort()) {
    const c = state.contracts.get(symbol)!;
    hash.update(
      `c|${symbol}|${text(c.bid)}|${text(c.ask)}|${c.basis.map((b) => b.toFixed()).join(',')}|${c.basisSum.toFixed()}`,
    );
    hash.update(`|${c.premiumSum.toFixed()}|${c.premiumCount}|${text(c.index)}|${text(c.mark)}|${c.fundingDue}\n`);
  }
  return hash.digest('hex');
}
