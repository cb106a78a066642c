import { type AccountType, FlowType, type FlowTypeName, type Markets } from '@exchange/contracts';
import {
  ApiError,
  type Clock,
  ErrorCode,
  formatDecimal,
  type IdGenerator,
  parseDecimalParam,
} from '@exchange/platform';
import type { SignedRequest } from '../auth/private-route';
import type { AuthContext } from '../auth/signed-request-authenticator';
import type { LedgerClient } from '../ledger-client/ledger-client';
import type { AccountCache, CachedAccount } from './account-cache';
import type { AccountRow, LedgerReader } from '@exchange/ledger-query';
import type { AccountEndpoints as E } from './account.endpoints';

export interface BalanceView {
  asset: string;
  free: string;
  locked: string;
}

export interface AccountView {
  balances: BalanceView[];
  canTrade: boolean;
  canWithdraw: boolean;
  canDeposit: boolean;
}

export interface SubAccountView {
  accountId: string;
  accountName: string;
  accountType: number;
  accountIndex: number;
}

export interface FlowView {
  id: string;
  accountId: string;
  tokenId: string;
  tokenName: string;
  flowTypeValue: number;
  flowType: string;
  flowName: string;
  change: string;
  total: string;
  created: string;
}

/** The account side of the private API: balances, sub-accounts, balance flow and transfers. */
export class AccountService {
  constructor(
    private readonly reader: LedgerReader,
    private readonly cache: AccountCache,
    private readonly ledger: LedgerClient,
    private readonly markets: Markets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * The answer of GET /openapi/v1/account as JSON text, rendered once per change of the account
   * (reads outnumber changes) and sent as it is. It is rendered with no await after the cache's
   * answer, so no ledger event can slip between reading the entry and keeping its text.
   */
  async account(ctx: AuthContext): Promise<string> {
    const entry = await this.cache.get(ctx.key.account.accountId);
    if (!entry) return JSON.stringify(await this.accountView(ctx.key.account.accountId, ctx.key.account));
    return (entry.answer ??= JSON.stringify(viewOf(entry.account, this.renderBalances(entry))));
  }

  async accountView(accountId: string, fallback?: AccountRow): Promise<AccountView> {
    const entry = await this.cache.get(accountId);
    const account = entry?.account ?? fallback;
    if (!account) throw ApiError.invalid('accountId', `account ${accountId} does not exist`);
    return viewOf(account, this.renderBalances(entry));
  }

  /** Every configured asset, zero balances included, so clients see a stable list. */
  async balancesOf(accountId: string): Promise<{ balances: BalanceView[] }> {
    return { balances: this.renderBalances(await this.cache.get(accountId)) };
  }

  private renderBalances(entry: CachedAccount | undefined): BalanceView[] {
    if (entry?.rendered) return entry.rendered as BalanceView[];
    const held = entry?.balances ?? new Map<string, { free: string; locked: string }>();
    const balances = this.markets.assets.map((a) => {
      const b = held.get(a.asset);
      return {
        asset: a.asset,
        free: formatDecimal(b?.free ?? '0', a.precision),
        locked: formatDecimal(b?.locked ?? '0', a.precision),
      };
    });
    if (entry) entry.rendered = balances;
    return balances;
  }

  async subAccounts(ctx: AuthContext): Promise<SubAccountView[]> {
    const accounts = ctx.isMainAccountKey
      ? await this.reader.accountsOfUser(ctx.key.account.userId)
      : [ctx.key.account];
    return accounts
      .filter((a) => a.accountType === 1 || a.accountType === 3)
      .map((a) => ({
        accountId: a.accountId,
        accountName: a.accountName,
        accountType: a.accountType,
        accountIndex: a.accountIndex,
      }));
  }

  async balanceFlow(ctx: SignedRequest<typeof E.balanceFlowGet>): Promise<FlowView[]> {
    const { tokenId, startTime, endTime, fromFlowId, endFlowId, limit } = ctx.query;
    const account = await this.scopedAccount(ctx, ctx.query.accountType, ctx.query.accountIndex);
    if (tokenId !== undefined && !this.markets.asset(tokenId))
      throw ApiError.invalid('tokenId', `unknown token ${tokenId}`);
    if (startTime !== undefined && endTime !== undefined && startTime > endTime)
      throw new ApiError(ErrorCode.START_AFTER_END, 'startTime must not be after endTime.');
    const rows = await this.reader.flows({
      accountId: account.accountId,
      asset: tokenId,
      fromFlowId: fromFlowId === undefined ? undefined : String(fromFlowId),
      endFlowId: endFlowId === undefined ? undefined : String(endFlowId),
      startTime,
      endTime,
      limit: limit ?? 500,
    });
    return rows.map((r) => {
      const type = FlowType[r.flowType as FlowTypeName];
      const precision = this.markets.asset(r.asset)?.precision ?? 8;
      return {
        id: r.flowId,
        accountId: r.accountId,
        tokenId: r.asset,
        tokenName: r.asset,
        flowTypeValue: type.value,
        flowType: type.name,
        flowName: type.label,
        change: formatDecimal(r.change, precision),
        total: formatDecimal(r.total, precision),
        created: String(r.created),
      };
    });
  }

  /**
   * The spec's three transfer rules: one side is the main token account; a main key moves between
   * any of its user's accounts; a sub-account key only from itself to the main account, naming none
   * of the four account parameters.
   */
  async transfer(ctx: SignedRequest<typeof E.transfer>): Promise<{ success: string }> {
    const q = ctx.query;
    const asset = this.markets.asset(q.tokenId);
    if (!asset) throw ApiError.invalid('tokenId', `unknown token ${q.tokenId}`);
    const amount = parseDecimalParam('amount', q.amount, asset.precision);
    const sides = ['fromAccountType', 'fromAccountIndex', 'toAccountType', 'toAccountIndex'] as const;
    let from: AccountRow;
    let to: AccountRow;
    if (!ctx.isMainAccountKey) {
      const named = sides.filter((s) => q[s] !== undefined);
      if (named.length > 0)
        throw new ApiError(
          ErrorCode.REJECTED_API_KEY,
          `A sub-account key transfers only to its main account; leave ${named.join(', ')} empty.`,
          403,
        );
      from = ctx.key.account;
      to = await this.accountOf(ctx.key.account.userId, 1, 0);
    } else {
      from = await this.accountOf(
        ctx.key.account.userId,
        Number(q.fromAccountType ?? 1) as AccountType,
        q.fromAccountIndex ?? 0,
      );
      if (q.toAccountType === undefined) throw ApiError.missing('toAccountType');
      to = await this.accountOf(ctx.key.account.userId, Number(q.toAccountType) as AccountType, q.toAccountIndex ?? 0);
    }
    if (from.accountId === to.accountId)
      throw ApiError.invalid('toAccountType', 'the source and the destination are the same account');
    const isMain = (a: AccountRow): boolean => a.accountType === 1 && a.accountIndex === 0;
    if (!isMain(from) && !isMain(to))
      throw new ApiError(
        ErrorCode.REJECTED_API_KEY,
        'Either the source or the destination must be the main token trading account.',
        403,
      );
    await this.ledger.execute(
      {
        type: 'TransferFunds',
        v: 1,
        id: this.ids.next(),
        ts: this.clock.now(),
        payload: {
          userId: from.userId,
          transferId: this.ids.next(),
          fromAccountId: from.accountId,
          toAccountId: to.accountId,
          asset: asset.asset,
          amount: amount.toFixed(),
        },
      },
      'FundsTransferred',
      { correlationId: ctx.correlationId },
    );
    return { success: 'true' };
  }

  /** The account a request may act on: its own, or for a main key any account of its user. */
  private async scopedAccount(
    ctx: AuthContext,
    type: string | undefined,
    index: number | undefined,
  ): Promise<AccountRow> {
    const own = ctx.key.account;
    if (type === undefined && index === undefined) return own;
    const accountType = Number(type ?? own.accountType) as AccountType;
    const accountIndex = index ?? 0;
    if (!ctx.isMainAccountKey) {
      if (accountType !== own.accountType || accountIndex !== own.accountIndex)
        throw new ApiError(ErrorCode.REJECTED_API_KEY, 'A sub-account key can only query its own account.', 403);
      return own;
    }
    return this.accountOf(own.userId, accountType, accountIndex);
  }

  private async accountOf(userId: string, accountType: AccountType, accountIndex: number): Promise<AccountRow> {
    const account = (await this.reader.accountsOfUser(userId)).find(
      (a) => a.accountType === accountType && a.accountIndex === accountIndex,
    );
    if (!account)
      throw ApiError.invalid('accountIndex', `no account of type ${accountType} with index ${accountIndex}`);
    return account;
  }
}

function viewOf(account: AccountRow, balances: BalanceView[]): AccountView {
  return { balances, canTrade: account.canTrade, canWithdraw: account.canWithdraw, canDeposit: account.canDeposit };
}
