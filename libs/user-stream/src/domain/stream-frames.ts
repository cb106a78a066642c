/**
 * The frames of the user data stream (spec 6.1 to 6.4, API-DECISIONS.md "User data stream", CONTRACTS.md "Streams").
 * Amounts are decimal strings; ids are strings (ARCHITECTURE rule 7), `t` is "-1" when no trade.
 */
export type ExecutionType = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';

/** The keys spot's and contracts' order reports share, with the same meaning and type. */
interface OrderReportKeys {
  s: string;
  c: string;
  o: string;
  f: string;
  q: string;
  p: string;
  X: string;
  i: string;
  l: string;
  z: string;
  L: string;
  n: string;
  u: boolean;
  w: boolean;
  m: boolean;
  Z: string;
}

export interface ExecutionReport extends OrderReportKeys {
  e: 'executionReport';
  E: number;
  S: string;
  N: string | null;
  O: number;
  x: ExecutionType;
  t: string;
  T: number;
  /** The reject code (-2010, -1151, …) of a REJECTED report; 0 otherwise. */
  r: number;
  /** The original client order id on a CANCELED report; "" otherwise. */
  C: string;
}

export interface BalanceChange {
  a: string;
  f: string;
  l: string;
}

export interface OutboundAccountInfo {
  e: 'outboundAccountInfo';
  E: number;
  T: boolean;
  W: boolean;
  D: boolean;
  B: BalanceChange[];
}

export interface ListenKeyExpired {
  e: 'listenKeyExpired';
  E: number;
  listenKey: string;
}

/**
 * A contract order's change (spec 6.3), in the family's shape: every number a string (E and O
 * too), S the direction BUY or SELL with C true for a CLOSE order, v the leverage.
 */
export interface ContractExecutionReport extends OrderReportKeys {
  e: 'contractExecutionReport';
  E: string;
  S: 'BUY' | 'SELL';
  N: string;
  O: string;
  C: boolean;
  v: string;
}

/** A position after it changed (spec 6.4), every number a string, with the event time E as the family sends it. */
export interface ContractPositionInfo {
  e: 'outboundContractPositionInfo';
  E: string;
  A: string;
  s: string;
  S: 'LONG' | 'SHORT';
  p: string;
  P: string;
  a: string;
  f: string;
  m: string;
  r: string;
}

/**
 * The USDT of the user's contracts account on the stream of the user's main (token) account, whose
 * outboundAccountInfo already means the token account's balances: the family's name for it.
 */
export interface OutboundContractAccountInfo {
  e: 'outboundContractAccountInfo';
  E: number;
  T: boolean;
  W: boolean;
  D: boolean;
  B: BalanceChange[];
}

export type StreamFrame =
  | ExecutionReport
  | OutboundAccountInfo
  | ListenKeyExpired
  | ContractExecutionReport
  | ContractPositionInfo
  | OutboundContractAccountInfo;
