import {
  internalRecipientOf,
  type LedgerCommand,
  type Markets,
  walletSettingsOf,
  type WithdrawalRecord,
} from '@exchange/contracts';
import { ApiError, type Clock, ErrorCode, type IdGenerator } from '@exchange/platform';
import type { SignedRequest } from '../auth/private-route';
import type { LedgerClient } from '../ledger-client/ledger-client';
import type { WalletClient } from './wallet-client';
import type { ListQuery, WalletReader } from '@exchange/wallet-query';
import { type DepositOrderView, depositView, type WithdrawalOrderView, withdrawalView } from './wallet-views';
import { parseWithdraw } from './withdraw-params';
import type { WalletEndpoints as E } from './wallet.endpoints';

/**
 * The wallet's private endpoints. A withdrawal is checked here (parameters, the address book),
 * held by the ledger (canWithdraw, client id, balance), then tracked by the wallet; the answer is
 * the wallet's record of it, so an immediate withdraw/detail shows the same.
 */
export class WalletService {
  constructor(
    private readonly ledger: LedgerClient,
    private readonly wallet: WalletClient,
    private readonly reader: WalletReader,
    private readonly markets: Markets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async withdraw(ctx: SignedRequest<typeof E.withdraw>): Promise<WithdrawalOrderView> {
    const r = parseWithdraw(ctx.query, this.markets);
    const account = ctx.key.account;
    const book = await this.reader.addressBook(account.accountId, r.asset.asset);
    if (!book.some((e) => e.address === r.address && e.addressExt === r.addressExt && e.chainType === r.chainType)) {
      throw ApiError.invalid(
        'address',
        `${r.address}${r.addressExt ? ` (${r.addressExt})` : ''} on ${r.chainType} is not in the account's withdrawal address book`,
      );
    }
    const internalTo = internalRecipientOf(r.address, r.asset.asset, r.chainType);
    const withdrawalId = this.ids.next();
    const command: LedgerCommand = {
      type: 'RequestWithdrawal',
      v: 1,
      id: this.ids.next(),
      ts: this.clock.now(),
      payload: {
        userId: account.userId,
        accountId: account.accountId,
        withdrawalId,
        clientOrderId: r.clientOrderId,
        asset: r.asset.asset,
        chainType: r.chainType,
        address: r.address,
        addressExt: r.addressExt,
        quantity: r.quantity,
        // A transfer to another account of this exchange costs nothing: no chain fee is paid for it.
        fee: internalTo ? '0' : walletSettingsOf(r.asset).withdrawFee,
        ...(internalTo ? { internalTo } : {}),
      },
    };
    const outcome = await this.ledger.request(
      command,
      (reply): { record: WithdrawalRecord } | { repeatedId: string } | undefined => {
        // The wallet's record descends from the hold (`<command id>:0`), so it is routed here too, possibly before the hold's own event.
        if (reply.from === 'wallet')
          return 'withdrawal' in reply.event.payload ? { record: reply.event.payload.withdrawal } : undefined;
        const event = reply.event;
        if (event.payload.commandId !== command.id || event.type === 'WithdrawalHeld') return undefined;
        if (event.type === 'WithdrawalRepeated') return { repeatedId: event.payload.withdrawalId };
        if (event.type === 'CommandRejected') {
          throw new ApiError(
            event.payload.code as never,
            event.payload.msg,
            event.payload.code === ErrorCode.REJECTED_API_KEY ? 403 : undefined,
          );
        }
        throw new Error(`ledger answered RequestWithdrawal with ${event.type}`);
      },
      { correlationId: ctx.correlationId },
    );
    return withdrawalView('record' in outcome ? outcome.record : await this.existing(outcome.repeatedId, command.id));
  }

  async detail(ctx: SignedRequest<typeof E.detail>): Promise<WithdrawalOrderView> {
    const { orderId, clientOrderId } = ctx.query;
    if (orderId === undefined && clientOrderId === undefined)
      throw new ApiError(ErrorCode.ORDER_ID_MISSING, 'Param orderId or clientOrderId must be sent.');
    const accountId = ctx.key.account.accountId;
    const found = await this.reader.withdrawal(
      orderId !== undefined
        ? { withdrawalId: String(orderId), accountId }
        : { clientOrderId: clientOrderId!, accountId },
    );
    if (!found || (clientOrderId !== undefined && found.clientOrderId !== clientOrderId))
      throw new ApiError(ErrorCode.NO_SUCH_ORDER, 'Withdrawal order does not exist.');
    return withdrawalView(found);
  }

  async withdrawalOrders(ctx: SignedRequest<typeof E.withdrawalOrders>): Promise<WithdrawalOrderView[]> {
    const token = ctx.query.token ?? ctx.query.tokenId;
    if (token !== undefined && !this.markets.asset(token)) throw ApiError.invalid('token', `unknown token ${token}`);
    return (await this.reader.withdrawals({ ...listQuery(ctx), asset: token })).map(withdrawalView);
  }

  async depositOrders(ctx: SignedRequest<typeof E.depositOrders>): Promise<DepositOrderView[]> {
    return (await this.reader.deposits(listQuery(ctx))).map(depositView);
  }

  /** A withdrawal the ledger says exists: in the read model already, or in the wallet's next event about it. */
  private async existing(withdrawalId: string, requestId: string): Promise<WithdrawalRecord> {
    const read = (): Promise<WithdrawalRecord | undefined> => this.reader.withdrawal({ withdrawalId });
    const found = await read();
    if (found) return found;
    const next = this.wallet.watchWithdrawal(`${requestId}/existing`, withdrawalId);
    const again = await read();
    if (again) {
      next.cancel();
      return again;
    }
    return next.promise;
  }
}

function listQuery(ctx: SignedRequest<typeof E.depositOrders>): ListQuery {
  const { startTime, endTime, fromId, limit } = ctx.query;
  if (startTime !== undefined && endTime !== undefined && startTime > endTime)
    throw new ApiError(ErrorCode.START_AFTER_END, 'startTime must not be after endTime.');
  return {
    accountId: ctx.key.account.accountId,
    startTime,
    endTime,
    fromId: fromId === undefined ? undefined : String(fromId),
    limit: limit ?? 500,
  };
}
