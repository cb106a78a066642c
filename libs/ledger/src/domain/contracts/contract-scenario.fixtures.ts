import { readFileSync } from 'node:fs';
import {
  type ContractCommand,
  type ContractEvent,
  type ContractSide,
  Markets,
  type PositionSide,
} from '@exchange/contracts';
import { flowIdOf, systemOrderIdOf } from '../ledger-ids';
import { type ContractContext, positionAfter } from './contract-decision';
import { type ContractDecision, decideContract } from './contract-decider';
import {
  type ContractsState,
  evolveContracts,
  initialContractsState,
  peekContractBalance,
  peekPosition,
} from './contract-state';

/** The shipped markets file: the scenarios run on the real defaults (BTC-SWAP-USDT: 0.001 BTC, 0.02% / 0.06%, 20×). */
export const shippedMarkets = Markets.fromJson(JSON.parse(readFileSync('config/markets.json', 'utf8')));
export const FEES = '9000000001';
export const FUND = '9000000002';
export const T0 = 1_700_000_000_000;

type Payload<T extends ContractCommand['type']> = Extract<ContractCommand, { type: T }>['payload'];
/** Test accounts are `<userId>1`, as the ledger numbers a user's first account. */
const userOf = (accountId: string) => accountId.slice(0, -1);

/**
 * Given/When/Then over the contracts decider: every command is decided against the fold of what
 * was decided before it, and the journal can be replayed. No mocks, no engine: fills are given.
 */
export class ContractScenario {
  readonly state: ContractsState = initialContractsState();
  readonly journal: ContractEvent[] = [];
  private n = 0;

  constructor(private readonly markets: Markets = shippedMarkets) {}

  context(offset: number): ContractContext {
    return {
      now: T0 + offset,
      contract: (s) => this.markets.contract(s),
      marginPrecision: this.markets.asset('USDT')!.precision,
      feeAccountId: FEES,
      flowId: (k) => flowIdOf(offset, 0, k),
      orderId: (k) => systemOrderIdOf(offset, 0, k),
      insurance: { userId: '9000000', accountId: FUND },
    };
  }

  when<T extends ContractCommand['type']>(
    type: T,
    payload: Omit<Payload<T>, 'userId'> & { accountId: string },
  ): ContractDecision {
    return this.run(type, { userId: userOf(payload.accountId), ...payload } as unknown as Payload<T>);
  }

  /** A command as sent, for those that name no account (the operator's, the price feed's). */
  run<T extends ContractCommand['type']>(type: T, payload: Payload<T>): ContractDecision {
    const n = ++this.n;
    const command = { type, v: 1, id: `c${n}`, ts: T0 + n, payload } as unknown as ContractCommand;
    const decision = decideContract(command, this.state, this.context(n));
    if ('events' in decision) {
      for (const e of decision.events) evolveContracts(this.state, e);
      this.journal.push(...decision.events);
    }
    return decision;
  }

  /** Like when, but a rejection is a broken test setup. */
  given<T extends ContractCommand['type']>(
    type: T,
    payload: Omit<Payload<T>, 'userId'> & { accountId: string },
  ): ContractEvent[] {
    const decision = this.when(type, payload);
    if ('rejection' in decision)
      throw new Error(`given ${type} was rejected: ${decision.rejection.code} ${decision.rejection.msg}`);
    return decision.events;
  }

  /** Like run, but a rejection is a broken test setup. */
  apply<T extends ContractCommand['type']>(type: T, payload: Payload<T>): ContractEvent[] {
    const decision = this.run(type, payload);
    if ('rejection' in decision)
      throw new Error(`${type} was rejected: ${decision.rejection.code} ${decision.rejection.msg}`);
    return decision.events;
  }

  credit(accountId: string, amount: string): this {
    this.given('CreditContractAccount', { accountId, creditId: String(++this.n), amount });
    return this;
  }

  order(
    accountId: string,
    orderId: string,
    side: ContractSide,
    quantity: string,
    price: string,
    leverage?: string,
    symbol = 'BTC-SWAP-USDT',
  ): ContractDecision {
    return this.when('PlaceContractOrder', {
      accountId,
      orderId,
      symbol,
      side,
      price,
      quantity,
      marketsVersion: this.markets.version,
      ...(leverage === undefined ? {} : { leverage }),
    });
  }

  /** A trade between a resting maker and a taker: one fill per side, maker first, as the engine reports it. */
  trade(
    maker: { accountId: string; orderId: string },
    taker: { accountId: string; orderId: string },
    quantity: string,
    price: string,
    tradeId: string,
    symbol = 'BTC-SWAP-USDT',
  ): ContractEvent[] {
    return [
      ...this.given('FillContractOrder', { ...maker, symbol, tradeId, price, quantity, isMaker: true }),
      ...this.given('FillContractOrder', { ...taker, symbol, tradeId, price, quantity, isMaker: false }),
    ];
  }

  balance(accountId: string): { free: string; locked: string; positionMargin: string } {
    const b = peekContractBalance(this.state, accountId);
    return { free: b.free.toFixed(), locked: b.locked.toFixed(), positionMargin: b.positionMargin.toFixed() };
  }

  position(accountId: string, side: PositionSide, symbol = 'BTC-SWAP-USDT') {
    const { size, available, avgPrice, entryValue, margin, realizedPnl, leverage } = positionAfter(
      peekPosition(this.state, accountId, symbol, side),
      this.markets.contract(symbol)!,
      this.context(0),
    );
    return { size, available, avgPrice, entryValue, margin, realizedPnl, leverage };
  }
}

/** What a mark price caused, without the ContractMarkPriced that keeps it (contract-marks.spec covers that one). */
export function markEffects(s: ContractScenario, symbol: string, markPrice: string): ContractEvent[] {
  return s
    .apply('MarkContractPrice', { symbol, markPrice, indexPrice: markPrice, marketsVersion: 1 })
    .filter((e) => e.type !== 'ContractMarkPriced');
}

/**
 * The liquidation specs' start: the accounts credited (account → USDT), the fund seeded, then
 * Alice (1001) LONG 1000 at 50000, 20× (margin 2500), against Bob (2001) SHORT 1000 at 50000, 10×.
 */
export function aliceLongBobShort(credits: Record<string, string>, fund: string): ContractScenario {
  const s = new ContractScenario();
  for (const [accountId, amount] of Object.entries(credits)) s.credit(accountId, amount);
  if (fund !== '0') s.apply('SeedInsuranceFund', { seedId: '1', amount: fund });
  s.order('2001', '21', 'SELL_OPEN', '1000', '50000', '10');
  s.order('1001', '11', 'BUY_OPEN', '1000', '50000', '20');
  s.trade({ accountId: '2001', orderId: '21' }, { accountId: '1001', orderId: '11' }, '1000', '50000', '1');
  return s;
}
