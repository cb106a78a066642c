import Decimal from 'decimal.js';
import type {
  ContractOrderRecord,
  Markets,
  ModifyPositionMargin,
  PlaceContractOrder,
  RequestContractCancel,
} from '@exchange/contracts';
import { ApiError, type Clock, ErrorCode, type IdGenerator } from '@exchange/platform';
import type { LedgerReader } from '@exchange/ledger-query';
import type { SignedRequest } from '../auth/private-route';
import type { AuthContext } from '../auth/signed-request-authenticator';
import type { LedgerClient } from '../ledger-client/ledger-client';
import { orderKey } from '../replies/pending-replies';
import { contractCancelOutcome, contractPlacement } from './contract-outcomes';
import { contractOf, optionalContract, parseContractOrder } from './contract-params';
import { resolveContractPrice } from './contract-prices';
import { contractOrderRowView, type ContractOrderView, contractTradeView, positionView } from './contract-views';
import { type ContractOrderRefParams, ContractEndpoints as E } from './contract.endpoints';
import type { ContractListQuery, ContractsReader } from '@exchange/ledger-query';

/**
 * The contract endpoints (CONTRACTS.md). A key of a contracts account (type 3) trades in it; a
 * main-account key trades in its user's main contracts account, as in the family, where one key
 * serves the token and the contract APIs. Requests wait for the ledger's journal entry of their
 * outcome, as spot orders do, so an immediate query reflects the answer.
 */
export class ContractService {
  /** Main account → its user's main contracts account: fixed once both exist. */
  private readonly contractsAccounts = new Map<string, string>();

  constructor(
    private readonly ledger: LedgerClient,
    private readonly reader: ContractsReader,
    private readonly accounts: LedgerReader,
    private readonly markets: Markets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async place(ctx: SignedRequest<typeof E.place>): Promise<ContractOrderView> {
    const request = parseContractOrder(ctx.query, this.markets);
    const quotes = request.priceType === 'INPUT' ? {} : await this.reader.quotes(request.contract.symbol);
    const price = resolveContractPrice(request, quotes);
    const accountId = await this.contractsAccountOf(ctx);
    const orderId = this.ids.next();
    const command: PlaceContractOrder = {
      type: 'PlaceContractOrder',
      v: 1,
      id: this.ids.next(),
      ts: this.clock.now(),
      payload: {
        userId: ctx.key.account.userId,
        accountId,
        orderId,
        symbol: request.contract.symbol,
        side: request.side,
        price,
        quantity: request.quantity,
        ...(request.leverage === undefined ? {} : { leverage: request.leverage }),
        marketsVersion: this.markets.version,
        ...(request.triggerPrice === undefined
          ? { orderType: 'LIMIT' as const }
          : { orderType: 'STOP' as const, triggerPrice: request.triggerPrice }),
        clientOrderId: request.clientOrderId,
        timeInForce: request.timeInForce,
        priceType: request.priceType,
      },
    };
    return this.ledger.request(command, contractPlacement(command.id, orderId), { correlationId: ctx.correlationId });
  }

  async getOrder(ctx: SignedRequest<typeof E.getOrder>): Promise<ContractOrderView> {
    const accountId = await this.contractsAccountOf(ctx);
    const { orderId, clientOrderId } = orderRef(ctx.query);
    const row = await this.reader.order(accountId, orderId, clientOrderId);
    if (!row) throw new ApiError(ErrorCode.NO_SUCH_ORDER, 'Order does not exist.');
    return contractOrderRowView(row);
  }

  async cancel(ctx: SignedRequest<typeof E.cancel>): Promise<ContractOrderView> {
    const accountId = await this.contractsAccountOf(ctx);
    const { orderId, clientOrderId } = orderRef(ctx.query);
    const row = await this.reader.order(accountId, orderId, clientOrderId);
    if (!row) throw new ApiError(ErrorCode.NO_SUCH_ORDER, 'Order does not exist.');
    return this.cancelOne(ctx, accountId, row.record.orderId, row.record);
  }

  /** Cancels every open order of the account (of one symbol when given); answers once each has ended. */
  async batchCancel(
    ctx: SignedRequest<typeof E.batchCancel>,
  ): Promise<{ message: string; timestamp: number; orderIds: string[] }> {
    const accountId = await this.contractsAccountOf(ctx);
    const open = await this.reader.openOrders({
      accountId,
      symbol: optionalContract(this.markets, ctx.query.symbol),
      limit: 1000,
    });
    const ended = await Promise.allSettled(open.map((o) => this.cancelOne(ctx, accountId, o.record.orderId, o.record)));
    const orderIds = ended.flatMap((r) => (r.status === 'fulfilled' ? [r.value.orderId] : []));
    return { message: 'success', timestamp: this.clock.now(), orderIds };
  }

  async openOrders(ctx: SignedRequest<typeof E.openOrders>): Promise<ContractOrderView[]> {
    const { orderId, orderType, ...q } = ctx.query;
    const query = await this.listQuery(ctx, { ...q, below: orderId });
    return (await this.reader.openOrders({ ...query, ...(orderType ? { orderType } : {}) })).map(contractOrderRowView);
  }

  async historyOrders(ctx: SignedRequest<typeof E.historyOrders>): Promise<ContractOrderView[]> {
    const { orderId, orderType, ...q } = ctx.query;
    const query = await this.listQuery(ctx, { ...q, below: orderId });
    return (await this.reader.historyOrders({ ...query, ...(orderType ? { orderType } : {}) })).map(
      contractOrderRowView,
    );
  }

  async myTrades(ctx: SignedRequest<typeof E.myTrades>): Promise<Record<string, unknown>[]> {
    const { fromId, ...q } = ctx.query;
    return (await this.reader.trades(await this.listQuery(ctx, { ...q, below: fromId }))).map(contractTradeView);
  }

  async positions(ctx: SignedRequest<typeof E.positions>): Promise<Record<string, string>[]> {
    return this.positionsOf(await this.contractsAccountOf(ctx), optionalContract(this.markets, ctx.query.symbol));
  }

  /** A contracts account's positions as `positions` shows them (the operator's view reads the same). */
  async positionsOf(accountId: string, symbol?: string): Promise<Record<string, string>[]> {
    const positions = await this.reader.positions(accountId, symbol);
    const prices = new Map<string, { lastPrice?: string; markPrice?: string }>();
    for (const symbol of new Set(positions.map((p) => p.symbol))) prices.set(symbol, await this.reader.quotes(symbol));
    return positions.map((p) => positionView(p, this.markets.contract(p.symbol)!, prices.get(p.symbol)!));
  }

  /** The insurance fund's USDT over all ledger partitions (public: CONTRACTS.md "Public data"). */
  async insurance(): Promise<{ token: string; balance: string; time: number }> {
    const fund = await this.reader.insuranceFund();
    return { token: 'USDT', balance: fund.balance, time: this.clock.now() };
  }

  async account(ctx: AuthContext): Promise<Record<string, Record<string, string>>> {
    return this.accountOf(await this.contractsAccountOf(ctx));
  }

  /** A contracts account's USDT as `account` shows it. */
  async accountOf(accountId: string): Promise<Record<string, Record<string, string>>> {
    const b = await this.reader.balance(accountId);
    const total = new Decimal(b.free).plus(b.locked).plus(b.positionMargin);
    return {
      USDT: {
        total: total.toFixed(),
        availableMargin: b.free,
        positionMargin: b.positionMargin,
        orderMargin: b.locked,
      },
    };
  }

  /**
   * Adds (positive) or removes (negative) position margin. The ledger checks a removal at the mark
   * price it consumed itself; the command's markPrice (v1's shape) only stands in until a price has reached it.
   */
  async modifyMargin(ctx: SignedRequest<typeof E.modifyMargin>): Promise<Record<string, string>> {
    const { side, amount } = ctx.query;
    const contract = contractOf(this.markets, ctx.query.symbol);
    if (!/^-?(0|[1-9]\d{0,19})(\.\d{1,18})?$/.test(amount))
      throw new ApiError(
        ErrorCode.ILLEGAL_CHARS,
        "Illegal characters found in parameter 'amount'; a plain signed decimal number is expected.",
      );
    const accountId = await this.contractsAccountOf(ctx);
    const position = await this.reader.position(accountId, contract.symbol, side);
    const markPrice =
      (await this.reader.quotes(contract.symbol)).markPrice ??
      (position && position.avgPrice !== '0' ? position.avgPrice : contract.minPrice);
    const command: ModifyPositionMargin = {
      type: 'ModifyPositionMargin',
      v: 1,
      id: this.ids.next(),
      ts: this.clock.now(),
      payload: { userId: ctx.key.account.userId, accountId, symbol: contract.symbol, side, amount, markPrice },
    };
    const event = await this.ledger.execute(command, 'PositionMarginModified', { correlationId: ctx.correlationId });
    return {
      symbol: contract.symbol,
      side,
      amount: event.payload.amount,
      margin: event.payload.position.margin,
      timestamp: String(event.ts),
    };
  }

  private async cancelOne(
    ctx: AuthContext,
    accountId: string,
    orderId: string,
    known?: ContractOrderRecord,
  ): Promise<ContractOrderView> {
    const command: RequestContractCancel = {
      type: 'RequestContractCancel',
      v: 1,
      id: this.ids.next(),
      ts: this.clock.now(),
      payload: { userId: ctx.key.account.userId, accountId, orderId },
    };
    const traced = await this.ledger.request(command, contractCancelOutcome(command.id, orderId, known), {
      alsoKeys: [orderKey(orderId)],
      correlationId: ctx.correlationId,
    });
    const row = await this.reader.order(accountId, orderId, undefined);
    return row ? contractOrderRowView(row) : traced;
  }

  /** The contracts account a key trades in; a key of a spot sub-account has none (-2015). */
  private async contractsAccountOf(ctx: AuthContext): Promise<string> {
    const account = ctx.key.account;
    if (account.accountType === 3) return account.accountId;
    if (!ctx.isMainAccountKey)
      throw new ApiError(
        ErrorCode.REJECTED_API_KEY,
        'This API key belongs to a sub-account without contracts; use a key of a contracts account or of the main account.',
        403,
      );
    const known = this.contractsAccounts.get(account.accountId);
    if (known) return known;
    const main = (await this.accounts.accountsOfUser(account.userId)).find(
      (a) => a.accountType === 3 && a.accountIndex === 0,
    );
    if (!main) throw new ApiError(ErrorCode.REJECTED_API_KEY, 'The user has no contracts account.', 403);
    this.contractsAccounts.set(account.accountId, main.accountId);
    return main.accountId;
  }

  private async listQuery(
    ctx: AuthContext,
    q: { symbol?: string; below?: number; startTime?: number; endTime?: number; limit?: number },
  ): Promise<ContractListQuery> {
    if (q.startTime !== undefined && q.endTime !== undefined && q.startTime > q.endTime)
      throw new ApiError(ErrorCode.START_AFTER_END, 'startTime must not be after endTime.');
    return {
      accountId: await this.contractsAccountOf(ctx),
      symbol: optionalContract(this.markets, q.symbol),
      ...(q.below === undefined ? {} : { idBelow: String(q.below) }),
      ...(q.startTime === undefined ? {} : { startTime: q.startTime }),
      ...(q.endTime === undefined ? {} : { endTime: q.endTime }),
      limit: q.limit ?? 20,
    };
  }
}

/** An order named by orderId or its client id (either name of it), else -1105. */
function orderRef(query: ContractOrderRefParams): { orderId?: string; clientOrderId?: string } {
  const { orderId } = query;
  const clientOrderId = query.clientOrderId ?? query.origClientOrderId;
  if (orderId === undefined && clientOrderId === undefined)
    throw new ApiError(ErrorCode.ORDER_ID_MISSING, 'Param orderId or clientOrderId must be sent.');
  return orderId === undefined ? { clientOrderId } : { orderId: String(orderId) };
}
