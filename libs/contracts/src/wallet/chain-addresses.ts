import { createHash } from 'node:crypto';
import type { AssetConfig } from '../markets/markets.schema';
import { walletSettingsOf } from '../markets/markets.schema';
import type { InternalRecipient } from '../ledger/ledger-withdrawal-commands';

/**
 * Deposit addresses of this exchange encode their account: `ex1` + userId and accountId in base 36
 * + a checksum over them, the token and the chain. So "does this address belong to an account of
 * this exchange" needs no lookup and no state of another partition, and a mistyped or foreign
 * address never passes for an internal one. A real chain integration replaces the encoding with
 * its wallet's address derivation and keeps the same question answered by its own index.
 */
const PREFIX = 'ex1';

function checksum(userId: string, accountId: string, token: string, chain: string): string {
  return createHash('sha256').update(`${userId}:${accountId}:${token}:${chain}`).digest('hex').slice(0, 10);
}

export function depositAddressOf(recipient: InternalRecipient, token: string, chain: string): string {
  const { userId, accountId } = recipient;
  return `${PREFIX}${BigInt(userId).toString(36)}x${BigInt(accountId).toString(36)}x${checksum(userId, accountId, token, chain)}`;
}

/** Whether the address has the shape of an exchange address (it may still be for another token). */
export function looksInternal(address: string): boolean {
  return address.startsWith(PREFIX);
}

/** The account an exchange address of this token and chain belongs to, or undefined. */
export function internalRecipientOf(address: string, token: string, chain: string): InternalRecipient | undefined {
  const match = /^ex1([0-9a-z]{1,11})x([0-9a-z]{1,11})x([0-9a-f]{10})$/.exec(address);
  if (!match) return undefined;
  const userId = parseBase36(match[1]!);
  const accountId = parseBase36(match[2]!);
  if (userId === undefined || accountId === undefined) return undefined;
  return checksum(userId, accountId, token, chain) === match[3] ? { userId, accountId } : undefined;
}

function parseBase36(text: string): string | undefined {
  let value = 0n;
  for (const ch of text) value = value * 36n + BigInt(parseInt(ch, 36));
  return value > 0n && value < 2n ** 53n ? value.toString() : undefined;
}

/**
 * The chain an asset moves on: for an asset with several chains (USDT: OMNI, ERC20, TRC20), the
 * given one or the first; for any other, the asset itself (a chainType given for it is ignored).
 * Undefined for a chain the asset does not have.
 */
export function chainOf(asset: AssetConfig, chainType: string | undefined): string | undefined {
  const chains = walletSettingsOf(asset).chains;
  if (chains.length === 0) return asset.asset;
  const chain = chainType ?? chains[0]!;
  return chains.includes(chain) ? chain : undefined;
}
