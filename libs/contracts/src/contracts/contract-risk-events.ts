import type { FlowEntry } from '../ledger/ledger-events';
import type { PositionSide } from './contract-commands.v1';
import type { ContractBalanceAfter, ContractOrderRecord, PositionAfter } from './contract-events';

/** USDT the operator put into the insurance fund: a DEPOSIT flow of the fund's account (USDT entering the exchange). */
export interface InsuranceFundSeeded {
  type: 'InsuranceFundSeeded';
  payload: { seedId: string; amount: string; balance: ContractBalanceAfter; flows?: FlowEntry[] };
}

/** One position's funding payment: negative when it paid. */
export interface FundingPayment {
  accountId: string;
  side: PositionSide;
  amount: string;
  position: PositionAfter;
  balance: ContractBalanceAfter;
}

/**
 * A funding interval settled: payers pay size × multiplier × mark × rate rounded up, receivers get
 * it rounded down, and the fund takes the difference (`remainder`), so the sum over all accounts is
 * unchanged. `uncovered` is what the fund could not pay when payers' margins ran out.
 */
export interface FundingSettled {
  type: 'FundingSettled';
  payload: {
    symbol: string;
    fundingTime: number;
    rate: string;
    markPrice: string;
    payments: FundingPayment[];
    remainder: string;
    uncovered: string;
    insurance: ContractBalanceAfter;
    /** The partition's clearing account, when this settlement moved it (see the ledger's settleFunding). */
    clearing?: ContractBalanceAfter;
    flows: FlowEntry[];
  };
}

/**
 * A position past its maintenance margin went to the insurance fund at the bankruptcy price: the
 * user lost exactly its margin (`loss`, a PNL flow); the fund holds the same size at an entry
 * value of the user's entry value ∓ that margin (`bankruptcyValue`), with no margin of its own.
 */
export interface PositionLiquidated {
  type: 'PositionLiquidated';
  payload: {
    accountId: string;
    symbol: string;
    side: PositionSide;
    markPrice: string;
    size: string;
    loss: string;
    bankruptcyValue: string;
    position: PositionAfter;
    balance: ContractBalanceAfter;
    fundPosition: PositionAfter;
    flows: FlowEntry[];
  };
}

/** One opposite position closed by auto-deleveraging: its share of the bankrupt position, at the bankruptcy price. */
export interface DeleveragedCounterparty {
  accountId: string;
  side: PositionSide;
  quantity: string;
  value: string;
  pnl: string;
  uncovered: string;
  position: PositionAfter;
  balance: ContractBalanceAfter;
}

/**
 * The fund could not cover what taking a bankrupt position over would lose at the mark price:
 * the position was closed against opposite positions instead, most profitable × leverage first.
 */
export interface PositionDeleveraged {
  type: 'PositionDeleveraged';
  payload: {
    accountId: string;
    symbol: string;
    side: PositionSide;
    markPrice: string;
    size: string;
    loss: string;
    bankruptcyValue: string;
    position: PositionAfter;
    balance: ContractBalanceAfter;
    counterparties: DeleveragedCounterparty[];
    flows: FlowEntry[];
  };
}

/** The last price crossed a STOP order's trigger: from now on it is the LIMIT order it describes. */
export interface ContractStopTriggered {
  type: 'ContractStopTriggered';
  payload: { accountId: string; symbol: string; lastPrice: string; order: ContractOrderRecord };
}

/**
 * A partition consumed a new mark price of a symbol (MarkContractPrice): the mark its margin checks
 * use (modifyMargin's removals) and the projection serves to `positions`. `at` is the price's event
 * time, so readers keep the latest of every partition's copy.
 */
export interface ContractMarkPriced {
  type: 'ContractMarkPriced';
  payload: { symbol: string; fundAccountId: string; markPrice: string; indexPrice: string; at: number };
}

/**
 * A funding settlement's part paid up to `after` (a position key) and more positions of the
 * partition remain: the fold keeps this cursor, and the step that journals it writes the
 * ContinueFunding numbered `part` (see its command) to the partition. The next part's
 * FundingSettled ends the cursor or this event moves it on.
 */
export interface FundingContinued {
  type: 'FundingContinued';
  payload: {
    symbol: string;
    fundAccountId: string;
    fundingTime: number;
    rate: string;
    markPrice: string;
    after: string;
    origin: string;
    part: number;
  };
}

/**
 * A liquidation cascade stopped at one command's budget with crossed positions left: the step
 * that journals it writes the ContinueLiquidation numbered `part` to the partition.
 */
export interface LiquidationContinued {
  type: 'LiquidationContinued';
  payload: { symbol: string; fundAccountId: string; marketsVersion: number; origin: string; part: number };
}

export type ContractRiskEvent =
  | InsuranceFundSeeded
  | FundingSettled
  | PositionLiquidated
  | PositionDeleveraged
  | ContractStopTriggered
  | ContractMarkPriced
  | FundingContinued
  | LiquidationContinued;
