/**
 * Ids the ledger derives rather than draws, so a rebuild from the journal reproduces them and
 * paging cursors survive it (ARCHITECTURE rule 7).
 */

/**
 * Each ledger partition credits fees to its own fee account (a fee is decided where the trade leg
 * is). Its id is far below any generated id (those count milliseconds since 2024 in high bits).
 */
export function feeAccountIdOf(partition: number): string {
  return String(partition + 1);
}

/**
 * What one command may create, and the budgets derived from it. Every limit of the id space is
 * here: a decision that would pass one throws (the command is poison), so a settlement larger than
 * a command (a funding of a partition's many positions, a liquidation cascade) is decided in parts
 * that stay within these budgets, each part writing the next as a continuation command.
 */
/** Flows one command may write. */
export const FLOWS_PER_COMMAND = 512;
/** Events a system user's command may journal (systemSeqOf). */
export const EVENTS_PER_SYSTEM_COMMAND = 4096;
/** Orders a system command may create (systemOrderIdOf): the fund's closing orders, one per side. */
export const ORDERS_PER_SYSTEM_COMMAND = 16;
/** Positions one part of a funding settlement pays: a flow each, besides the part's clearing and fund flows. */
export const FUNDING_PAYMENTS_PER_COMMAND = FLOWS_PER_COMMAND - 2;

/**
 * Whether a liquidation cascade may take one more position in this command, given what it has
 * used: while under half of the flows and events. The other half is the headroom of the step it
 * starts (a takeover is one flow and an event per order it cancels; a deleveraging a flow per
 * counterparty) and of the fund's closing orders after the cascade.
 */
export function liquidationFits(spent: { flows: number; events: number }): boolean {
  return spent.flows < FLOWS_PER_COMMAND / 2 && spent.events < EVENTS_PER_SYSTEM_COMMAND / 2;
}
/** Where the flow ids of this layout start: above every id of the first (offset × 1024 + partition × 16 + k + 1). */
const FLOW_ID_BASE = 2 ** 50;
const FLOW_ID_LAST_OFFSET = Math.floor((Number.MAX_SAFE_INTEGER - FLOW_ID_BASE) / (64 * FLOWS_PER_COMMAND)) - 1;

/**
 * Flow ids come from the command's position in the log: offset, partition, and the k-th flow of
 * the command, so they increase with the log per account and a rebuild reproduces them. The first
 * layout gave a command 16 flows, and a funding of more positions than that in one partition (or a
 * mark liquidating more) could not be journaled at all: this one gives 512, above all of the first
 * layout's ids (theirs need an offset past 2^40 to reach 2^50), and lasts 2.4e11 commands a
 * partition (7 years at 1,000 a second in every partition).
 */
export function flowIdOf(offset: number, partition: number, k: number): string {
  if (k >= FLOWS_PER_COMMAND || partition >= 64 || offset > FLOW_ID_LAST_OFFSET)
    throw new Error('ledger: flow id space exceeded');
  return String(FLOW_ID_BASE + (offset * 64 + partition) * FLOWS_PER_COMMAND + k + 1);
}

/**
 * The partitions' system users have ids from here (16 digits, below 2^53): the gateway's ids
 * (41 bits of ms since 2024, then 12 more bits) reach it in about 70 years.
 */
export const SYSTEM_USER_ID_BASE = 9_000_000_000_000_000;

/** The partitions' insurance fund accounts are these ids (fee accounts are 1–64, generated ids far above). */
export const INSURANCE_ACCOUNT_IDS = { first: 101, last: 164 } as const;

/** Each partition's share of the insurance fund: the fund is the sum of them. */
export function insuranceAccountIdOf(partition: number): string {
  if (partition >= 64) throw new Error('ledger: insurance account id space exceeded');
  return String(INSURANCE_ACCOUNT_IDS.first + partition);
}

/** Each partition's funding clearing account (see settleFunding): the sum over partitions is zero up to rounding. */
export function clearingAccountIdOf(partition: number): string {
  return String(partition + 201);
}

/**
 * The id of the k-th order a system command creates (the fund's closing orders), from the
 * command's log position: above 2^52, where the gateway's ids (41 bits of ms since 2024, then 12
 * more bits) do not reach for decades, and below 2^53 (rule 7).
 */
export function systemOrderIdOf(offset: number, partition: number, k: number): string {
  if (k >= ORDERS_PER_SYSTEM_COMMAND || partition >= 64) throw new Error('ledger: system order id space exceeded');
  return String(2 ** 52 + offset * 1024 + partition * 16 + k);
}

/** The sequence of the index-th event a system user's command journals: increasing with the log position. */
export function systemSeqOf(offset: number, index: number): number {
  if (index >= EVENTS_PER_SYSTEM_COMMAND) throw new Error('ledger: a system command journals at most 4096 events');
  return offset * EVENTS_PER_SYSTEM_COMMAND + index + 1;
}
