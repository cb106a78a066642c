import { type LedgerCommand, ledgerCommandSchema, type LedgerJournalEvent } from '@exchange/contracts';
import { decide, type TradingContext } from '../decide';
import type { PartitionContext } from '../ledger-decision';
import { clearingAccountIdOf, insuranceAccountIdOf, systemOrderIdOf, systemSeqOf } from '../ledger-ids';
import { evolve, initialLedgerState } from '../ledger-state';
import { adlCommandsFor, type PartitionCommand } from './adl-commands';
import { shippedMarkets as markets } from './contract-scenario.fixtures';

const T0 = 1_700_000_000_000;
let ids = 0;

/** A ledger command as a record of ledger.commands parses, sent a millisecond after the one before. */
export function cmd(type: LedgerCommand['type'], payload: Record<string, unknown>, id = `t${++ids}`): LedgerCommand {
  return ledgerCommandSchema.parse({ type, v: type === 'ApplyOrderOutcome' ? 2 : 1, id, ts: T0 + ids, payload });
}

/** How users fall into partitions, each partition's system user, and (for ADL across them) how many there are. */
export interface PartitionLayout {
  systemUsers: string[];
  partitionOf(userId: string): number;
  /** Absent: the decider is not told the count, and deleverages within a partition only. */
  count?: number;
}

/**
 * Several ledger partitions in one state, as one ledger process holds them, each command decided
 * by the partition it is given to. What a decision asks of other partitions (adlCommandsFor) waits
 * in `outbox` for the spec to deliver.
 */
export class PartitionedLedger {
  readonly state = initialLedgerState();
  readonly journal: LedgerJournalEvent[] = [];
  readonly outbox: PartitionCommand[] = [];
  private offset = 0;

  constructor(private readonly layout: PartitionLayout) {}

  partition(p: number, offset: number): PartitionContext {
    return {
      userId: this.layout.systemUsers[p]!,
      insuranceAccountId: insuranceAccountIdOf(p),
      clearingAccountId: clearingAccountIdOf(p),
      orderId: (k) => systemOrderIdOf(offset, p, k),
      seq: (index) => systemSeqOf(offset, index),
      owns: (accountId) => {
        if (accountId === insuranceAccountIdOf(p) || accountId === clearingAccountIdOf(p)) return true;
        const userId = this.state.accounts.get(accountId)?.record.userId;
        return userId !== undefined && userId !== '0' && this.layout.partitionOf(userId) === p;
      },
      ...(this.layout.count === undefined ? {} : { index: p, count: this.layout.count }),
    };
  }

  when(command: LedgerCommand, p: number): LedgerJournalEvent[] {
    const offset = this.offset++;
    const ctx: TradingContext = {
      now: command.ts,
      flowId: (k) => String(offset * 16 + k + 1),
      asset: (n) => markets.asset(n),
      symbol: (s) => markets.symbol(s),
      contract: (s) => markets.contract(s),
      feeAccountId: String(p + 1),
      partition: this.partition(p, offset),
    };
    const events = decide(command, this.state, ctx);
    for (const e of events) evolve(this.state, e);
    this.journal.push(...events);
    this.outbox.push(...adlCommandsFor(events));
    return events;
  }

  given(type: LedgerCommand['type'], payload: Record<string, unknown>, p: number): LedgerJournalEvent[] {
    const events = this.when(cmd(type, payload), p);
    if (events[0]?.type === 'CommandRejected') throw new Error(`given ${type} was rejected: ${events[0].payload.msg}`);
    return events;
  }
}
