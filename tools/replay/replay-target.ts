import type { Markets } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import type { Config, Logger } from '@exchange/platform';

/** What every rebuild gets: the exchange's configuration and its event log, as the services see them. */
export interface ReplayContext {
  config: Config;
  log: EventLog;
  markets: Markets;
  logger: Logger;
  /** Prints to the operator (stdout): results, hashes, the measured rate. */
  say(line: string): void;
  /** Progress goes to stderr, so stdout stays parseable. */
  progress: NodeJS.WriteStream;
}

export interface ReplayOptions {
  /** Where the rebuilt copy goes: a schema name (PostgreSQL services) or a folder (in-memory services). */
  into?: string;
  /** Make the rebuilt copy the one the service reads. */
  switch: boolean;
  /** Switch even when the rebuilt state does not match the live one (the live copy is the damaged one). */
  force: boolean;
}

/** One comparison of the rebuilt state with the live one. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface ReplayResult {
  events: number;
  seconds: number;
  checks: Check[];
  /** Where the rebuilt copy is, for the operator and for `switch`. */
  location: string;
  /** The end offsets of each journal topic the rebuild folded up to, by partition. */
  position: Record<string, number[]>;
}

/**
 * A service the CLI can rebuild: fold its journal into a fresh copy, compare that copy with the
 * live state, and (where the service reads its state from a copy it can be pointed at) switch to
 * it. A service joins by adding a target to replay-targets.ts.
 */
export interface ReplayTarget {
  service: string;
  /** The journal topic(s) folded, for the usage text. */
  journal: string;
  rebuild(ctx: ReplayContext, options: ReplayOptions): Promise<ReplayResult>;
  /** Absent when there is nothing to switch (state held in memory and rebuilt on start anyway). */
  switchTo?(ctx: ReplayContext, result: ReplayResult): Promise<string>;
}
