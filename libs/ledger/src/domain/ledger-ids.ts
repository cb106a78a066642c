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

/** Flow ids come from the command's position in the log: offset, partition, and the k-th flow of the command. */
export function flowIdOf(offset: number, partition: number, k: number): string {
  if (k >= 16 || partition >= 64) throw new Error('ledger: flow id space exceeded');
  return String(offset * 1024 + partition * 16 + k + 1);
}
