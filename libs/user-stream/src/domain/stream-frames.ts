/**
 * The frames of the user data stream (spec 6.1, 6.2, API-DECISIONS.md "User data stream").
 * Amounts are decimal strings; ids are strings (ARCHITECTURE rule 7), `t` is "-1" when no trade.
 */
export type ExecutionType = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';

export interface ExecutionReport {
  e: 'executionReport';
  E: number;
  s: string;
  c: string;
  S: string;
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
  N: string | null;
  u: boolean;
  w: boolean;
  m: boolean;
  O: number;
  Z: string;
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

export type StreamFrame = ExecutionReport | OutboundAccountInfo | ListenKeyExpired;
