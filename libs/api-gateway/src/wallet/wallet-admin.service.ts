import { createHash } from 'node:crypto';
import {
  type AssetConfig,
  chainOf,
  depositAddressOf,
  internalRecipientOf,
  looksInternal,
  type Markets,
  type MessageDraft,
  type WalletCommand,
  walletSettingsOf,
  type WithdrawalRecord,
} from '@exchange/contracts';
import { ApiError, type Clock, ErrorCode, type IdGenerator, parseDecimalParam } from '@exchange/platform';
import type { AccountRow, LedgerReader } from '@exchange/ledger-query';
import type { WalletClient } from './wallet-client';
import type { WalletReader } from '@exchange/wallet-query';
import { addressEntryView, adminDepositView, type WithdrawalOrderView, withdrawalView } from './wallet-views';

/**
 * The operator's side of the wallet: deposit addresses, the simulated chain's deposits and its
 * verdicts on withdrawals, address books, and the two audits. Every change is a wallet command,
 * answered once the wallet has decided it.
 */
export class WalletAdminService {
  constructor(
    private readonly ledgerReader: LedgerReader,
    private readonly reader: WalletReader,
    private readonly wallet: WalletClient,
    private readonly markets: Markets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Addresses encode their account, so assigning one is deterministic and needs no record. */
  async depositAddress(
    accountId: string,
    tokenId: string,
    chainType?: string,
  ): Promise<{ address: string; addressTag: string; tokenId: string; chainType: string }> {
    const account = await this.requireAccount(accountId);
    const asset = this.requireAsset(tokenId, 'tokenId');
    const chain = this.requireChain(asset, chainType);
    return {
      address: depositAddressOf(account, asset.asset, chain),
      addressTag: '',
      tokenId: asset.asset,
      chainType: chain,
    };
  }

  /**
   * The simulated chain reports a transfer to the account's deposit address (all the asset's
   * confirmations unless fewer are given). Once credited, the answer waits for the ledger too,
   * so the balance shows it.
   */
  async deposit(input: {
    accountId: string;
    asset: string;
    amount: string;
    address?: string;
    txid?: string;
    confirmations?: number;
    chainType?: string;
  }) {
    const account = await this.requireAccount(input.accountId);
    const asset = this.requireAsset(input.asset, 'asset');
    const chain = this.requireChain(asset, input.chainType);
    const quantity = parseDecimalParam('amount', input.amount, asset.precision);
    const address = depositAddressOf(account, asset.asset, chain);
    if (input.address !== undefined && input.address !== address)
      throw ApiError.invalid(
        'address',
        `it is not account ${account.accountId}'s ${asset.asset} deposit address on ${chain}`,
      );
    if (input.txid !== undefined && !/^[A-Za-z0-9_\-:.]{1,200}$/.test(input.txid))
      throw ApiError.invalid('txid', 'letters, digits, _ - : . only');
    const confirmations = input.confirmations ?? walletSettingsOf(asset).confirmations;
    const event = await this.wallet.reportDeposit(
      this.command({
        type: 'ReportDeposit',
        payload: {
          userId: account.userId,
          accountId: account.accountId,
          asset: asset.asset,
          chainType: chain,
          address,
          addressTag: '',
          fromAddress: 'simulated-chain',
          fromAddressTag: '',
          txid: input.txid ?? `sim-${this.ids.next()}`,
          quantity: quantity.toFixed(),
          confirmations,
        },
      }),
    );
    return adminDepositView(event.payload.deposit);
  }

  async addAddress(input: {
    accountId: string;
    tokenId: string;
    address: string;
    addressExt?: string;
    chainType?: string;
  }) {
    const account = await this.requireAccount(input.accountId);
    const asset = this.requireAsset(input.tokenId, 'tokenId');
    const chain = this.requireChain(asset, input.chainType);
    if (looksInternal(input.address)) {
      // An exchange address must name a real other account for this token and chain, or its credit would have nowhere to go.
      const to = internalRecipientOf(input.address, asset.asset, chain);
      const receiver = to && (await this.ledgerReader.account(to.accountId));
      if (!to || !receiver || receiver.userId !== to.userId)
        throw ApiError.invalid('address', `not an exchange deposit address for ${asset.asset} on ${chain}`);
      if (to.accountId === account.accountId)
        throw ApiError.invalid('address', "it is this account's own deposit address");
    }
    const event = await this.wallet.execute(
      this.command({
        type: 'AddWithdrawalAddress',
        payload: {
          userId: account.userId,
          accountId: account.accountId,
          entryId: this.ids.next(),
          tokenId: asset.asset,
          chainType: chain,
          address: input.address,
          addressExt: input.addressExt ?? '',
        },
      }),
    );
    if (event.type !== 'WithdrawalAddressAdded')
      throw new Error(`wallet answered AddWithdrawalAddress with ${event.type}`);
    return addressEntryView(event.payload.entry);
  }

  async listAddresses(accountId: string) {
    await this.requireAccount(accountId);
    return (await this.reader.addressBook(accountId)).map(addressEntryView);
  }

  async removeAddress(id: string): Promise<Record<string, never>> {
    const entry = /^[1-9]\d{0,15}$/.test(id) ? await this.reader.addressEntry(id) : undefined;
    if (!entry) throw ApiError.invalid('id', `address-book entry ${id} does not exist`);
    await this.wallet.execute(
      this.command({ type: 'RemoveWithdrawalAddress', payload: { userId: entry.userId, entryId: entry.id } }),
    );
    return {};
  }

  async approve(orderId: string): Promise<WithdrawalOrderView> {
    const w = await this.requireWithdrawal(orderId);
    return this.advanced(
      this.command({ type: 'ApproveWithdrawal', payload: { userId: w.userId, withdrawalId: w.withdrawalId } }),
    );
  }

  async reject(orderId: string, reason?: string): Promise<WithdrawalOrderView> {
    const w = await this.requireWithdrawal(orderId);
    return this.advanced(
      this.command({
        type: 'RejectWithdrawal',
        payload: { userId: w.userId, withdrawalId: w.withdrawalId, reason: reason ?? 'rejected by the operator' },
      }),
    );
  }

  /** Simulated chain: mined with the given confirmations (by default all the asset needs: success). */
  async chainConfirm(orderId: string, confirmations?: number): Promise<WithdrawalOrderView> {
    const w = await this.requireWithdrawal(orderId);
    const txid = w.txid || createHash('sha256').update(`simulated:${w.withdrawalId}`).digest('hex');
    return this.advanced(
      this.command({
        type: 'ReportWithdrawal',
        payload: {
          userId: w.userId,
          withdrawalId: w.withdrawalId,
          stage: 'MINED',
          txid,
          confirmations: confirmations ?? w.requiredConfirmations,
        },
      }),
    );
  }

  async chainFail(orderId: string, reason?: string): Promise<WithdrawalOrderView> {
    const w = await this.requireWithdrawal(orderId);
    return this.advanced(
      this.command({
        type: 'ReportWithdrawal',
        payload: {
          userId: w.userId,
          withdrawalId: w.withdrawalId,
          stage: 'FAILED',
          reason: reason ?? 'failed on the chain',
        },
      }),
    );
  }

  private async advanced(command: WalletCommand): Promise<WithdrawalOrderView> {
    const event = await this.wallet.execute(command);
    if (!('withdrawal' in event.payload)) throw new Error(`wallet answered ${command.type} with ${event.type}`);
    return withdrawalView(event.payload.withdrawal);
  }

  private async requireWithdrawal(orderId: string): Promise<WithdrawalRecord> {
    const w = /^[1-9]\d{0,15}$/.test(orderId) ? await this.reader.withdrawal({ withdrawalId: orderId }) : undefined;
    if (!w) throw new ApiError(ErrorCode.NO_SUCH_ORDER, `Withdrawal order ${orderId} does not exist.`);
    return w;
  }

  private async requireAccount(accountId: string): Promise<AccountRow> {
    if (!/^[1-9]\d{0,15}$/.test(accountId)) throw ApiError.invalid('accountId', 'expected an account id');
    const account = await this.ledgerReader.account(accountId);
    if (!account) throw ApiError.invalid('accountId', `account ${accountId} does not exist`);
    return account;
  }

  private requireAsset(name: string, param: string): AssetConfig {
    const asset = this.markets.asset(name);
    if (!asset) throw ApiError.invalid(param, `unknown token ${name}`);
    return asset;
  }

  private requireChain(asset: AssetConfig, chainType: string | undefined): string {
    const chain = chainOf(asset, chainType);
    if (chain === undefined) throw ApiError.invalid('chainType', `${asset.asset} does not move on ${chainType}`);
    return chain;
  }

  private command(draft: MessageDraft<WalletCommand>): WalletCommand {
    return { ...draft, v: 1, id: this.ids.next(), ts: this.clock.now() };
  }
}
