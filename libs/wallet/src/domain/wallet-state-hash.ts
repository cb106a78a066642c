import { createHash } from 'node:crypto';
import type { WalletState } from './wallet-state';

/**
 * A digest of everything the wallet's fold holds: two states hash alike exactly when they hold
 * the same withdrawals, deposits and address-book entries. Records are written with their keys
 * sorted, so a record read back from jsonb (which reorders keys) hashes as the one the fold made.
 */
export function walletStateHash(state: WalletState): string {
  const hash = createHash('sha256');
  const section = (tag: string, entries: Map<string, object>): void => {
    for (const key of [...entries.keys()].sort()) hash.update(`${tag}|${key}|${canonicalJson(entries.get(key))}\n`);
  };
  section('w', state.withdrawals);
  section('d', state.deposits);
  section('a', state.addresses);
  return hash.digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
