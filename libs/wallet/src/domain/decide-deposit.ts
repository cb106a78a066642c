import type { AddWithdrawalAddress, DepositRecord, RemoveWithdrawalAddress, ReportDeposit } from '@exchange/contracts';
import type { WalletContext, WalletDraft } from './wallet-decision';
import { WalletRejectCode, WalletRejection } from './wallet-rejection';
import { depositKey, type WalletState } from './wallet-state';

/**
 * The chain reports a deposit, as often as it likes. It is credited once, by the report that
 * brings its confirmations to the asset's count; an earlier report records it as confirming, a
 * later one (or one with no more confirmations) is a repeat that changes nothing.
 */
export function reportDeposit(command: ReportDeposit, state: WalletState, ctx: WalletContext): WalletDraft {
  const p = command.payload;
  const known = state.deposits.get(depositKey(p));
  if (known && (known.status === 'CREDITED' || p.confirmations <= known.confirmations)) {
    return { type: 'DepositReported', payload: { deposit: known, credited: false, repeated: true } };
  }
  const base: DepositRecord = known ?? {
    depositId: ctx.newId(),
    userId: p.userId,
    accountId: p.accountId,
    asset: p.asset,
    chainType: p.chainType,
    address: p.address,
    addressTag: p.addressTag,
    fromAddress: p.fromAddress,
    fromAddressTag: p.fromAddressTag,
    txid: p.txid,
    quantity: p.quantity,
    confirmations: 0,
    requiredConfirmations: ctx.settings(p.asset).confirmations,
    status: 'CONFIRMING',
    time: ctx.now,
  };
  const credited = p.confirmations >= base.requiredConfirmations;
  const deposit: DepositRecord = {
    ...base,
    confirmations: p.confirmations,
    ...(credited ? { status: 'CREDITED', creditTime: ctx.now } : {}),
  };
  return { type: 'DepositReported', payload: { deposit, credited, repeated: false } };
}

/** An address the account may withdraw to; the same address twice is refused, naming the entry. */
export function addWithdrawalAddress(
  command: AddWithdrawalAddress,
  state: WalletState,
  ctx: WalletContext,
): WalletDraft {
  const { userId, accountId, entryId, tokenId, chainType, address, addressExt } = command.payload;
  if (state.addresses.has(entryId))
    throw new WalletRejection(WalletRejectCode.INVALID_VALUE, `Address-book entry ${entryId} already exists.`);
  for (const e of state.addresses.values()) {
    if (
      e.accountId === accountId &&
      e.tokenId === tokenId &&
      e.chainType === chainType &&
      e.address === address &&
      e.addressExt === addressExt
    ) {
      throw new WalletRejection(
        WalletRejectCode.INVALID_VALUE,
        `Invalid value for parameter 'address': it is already in the address book as entry ${e.id}.`,
      );
    }
  }
  return {
    type: 'WithdrawalAddressAdded',
    payload: { entry: { id: entryId, userId, accountId, tokenId, chainType, address, addressExt, created: ctx.now } },
  };
}

export function removeWithdrawalAddress(command: RemoveWithdrawalAddress, state: WalletState): WalletDraft {
  const entry = state.addresses.get(command.payload.entryId);
  if (!entry || entry.userId !== command.payload.userId)
    throw new WalletRejection(
      WalletRejectCode.INVALID_VALUE,
      `Address-book entry ${command.payload.entryId} does not exist.`,
    );
  return { type: 'WithdrawalAddressRemoved', payload: { entry } };
}
