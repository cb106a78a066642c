import { partitionForKey } from '@exchange/messaging';
import type { PartitionContext } from '../domain/ledger-decision';
import {
  clearingAccountIdOf,
  insuranceAccountIdOf,
  SYSTEM_USER_ID_BASE,
  systemOrderIdOf,
  systemSeqOf,
} from '../domain/ledger-ids';
import type { LedgerState } from '../domain/ledger-state';

const systemUsers = new Map<string, string>();

/**
 * A partition's system user: the first id from SYSTEM_USER_ID_BASE on that the partitioner
 * maps to it, so what it journals lands in the partition's own ledger.events stream and the
 * engine's settlements of its fund's orders come back to the partition.
 */
export function systemUserIdOf(partition: number, partitions: number): string {
  const key = `${partition}/${partitions}`;
  const known = systemUsers.get(key);
  if (known !== undefined) return known;
  for (let n = 0; n < 100_000; n++) {
    const id = String(SYSTEM_USER_ID_BASE + n);
    if (partitionForKey(id, partitions) !== partition) continue;
    systemUsers.set(key, id);
    return id;
  }
  throw new Error(`ledger: no system user id maps to partition ${partition}`);
}

/** The system side of the partition that decides the command at `offset`. */
export function partitionContextOf(
  state: LedgerState,
  partition: number,
  partitions: number,
  offset: number,
): PartitionContext {
  const insuranceAccountId = insuranceAccountIdOf(partition);
  const clearingAccountId = clearingAccountIdOf(partition);
  return {
    userId: systemUserIdOf(partition, partitions),
    index: partition,
    count: partitions,
    insuranceAccountId,
    clearingAccountId,
    orderId: (k) => systemOrderIdOf(offset, partition, k),
    seq: (index) => systemSeqOf(offset, index),
    owns: (accountId) => {
      if (accountId === insuranceAccountId || accountId === clearingAccountId) return true;
      const userId = state.accounts.get(accountId)?.record.userId;
      return userId !== undefined && userId !== '0' && partitionForKey(userId, partitions) === partition;
    },
  };
}
