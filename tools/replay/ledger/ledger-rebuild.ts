import { type LedgerJournalEvent, parseLedgerEvent, Topics } from '@exchange/contracts';
import {
  feeAccountIdOf,
  initialLedgerState,
  ledgerMigrations,
  LedgerStore,
  ledgerStateHash,
  projectionRows,
  writeProjection,
} from '@exchange/ledger';
import { partitionForKey } from '@exchange/messaging';
import type { DataSource } from 'typeorm';
import { Progress } from '../progress';
import type { Check, ReplayContext, ReplayTarget } from '../replay-target';
import { rebuildSchema, rowCountChecks, switchSchema } from '../schema-target';
import { balanceInvariantProblems } from './ledger-balance-invariant';

const journal = Topics.ledgerEvents.name;

/**
 * The ledger's state is the fold of its journal, ledger.events (ARCHITECTURE rule 1). The rebuild
 * writes that fold into a fresh schema with the ledger's own projection code, then compares the
 * state the ledger would load from it with the state it loads from the live schema.
 */
export const ledgerReplay: ReplayTarget = {
  service: 'ledger',
  journal: `${journal} → a fresh PostgreSQL schema (default <prefix>ledger_rebuilt)`,
  rebuild: async (ctx, options) => {
    const partitions = await ctx.log.partitionCount(Topics.ledgerCommands.name);
    return rebuildSchema(ctx, options, {
      service: 'ledger',
      migrations: ledgerMigrations,
      fold: async (rebuilt, target) => {
        const { events, seconds, ends } = await foldJournalInto(ctx, rebuilt, target);
        return { events, seconds, position: { [journal]: ends } };
      },
      compare: async (rebuilt, target, live, liveSchema) => compare(rebuilt, target, live, liveSchema, partitions),
    });
  },
  switchTo: async (ctx, result) => switchSchema(ctx, result, 'ledger', journal, { projected: true }),
};

/** Events written per transaction: large enough that commits do not bound the rate. */
const WRITE_BATCH = 10_000;

/**
 * Writes the projection of every event of ledger.events (up to its end at the start) into a
 * migrated, empty schema: one transaction per WRITE_BATCH events, events deduplicated by id.
 */
export async function foldJournalInto(
  ctx: ReplayContext,
  rebuilt: DataSource,
  target: string,
): Promise<{ events: number; seconds: number; ends: number[] }> {
  const ends = await ctx.log.endOffsets(journal);
  const partitions = await ctx.log.partitionCount(Topics.ledgerCommands.name);
  const partitionOf = (userId: string): number => partitionForKey(userId, partitions);
  const progress = new Progress(
    'ledger',
    ends.reduce((a, b) => a + b, 0),
    ctx.progress,
  );
  const seen = new Set<string>();
  let pending: LedgerJournalEvent[] = [];
  const flush = async (): Promise<void> => {
    const events = pending;
    pending = [];
    if (events.length > 0)
      await rebuilt.transaction((manager) =>
        writeProjection(manager.queryRunner!, target, projectionRows(events, partitionOf)),
      );
  };
  for (let p = 0; p < ends.length; p++) {
    await ctx.log.read(
      journal,
      p,
      0,
      async (records) => {
        for (const record of records) {
          const event = parseLedgerEvent(record.value);
          // A rebuild that skipped a record would compare as a damaged copy: stop and name it instead.
          if (!event) throw new Error(`${journal} ${p}@${record.offset} is not a ledger event`);
          // Earlier versions' outbox relay published at least once: a repeated event id is the same event.
          if (seen.has(event.id)) continue;
          seen.add(event.id);
          pending.push(event);
        }
        if (pending.length >= WRITE_BATCH) await flush();
        progress.advance(records.length);
      },
      ends[p],
    );
    await flush();
  }
  return { ...progress.finish(), ends };
}

/**
 * The state hash the ledger computes over what it loads at start (every partition, at one
 * instant), from the rebuilt and the live schema; the balance invariant on both; row counts.
 */
async function compare(
  rebuilt: DataSource,
  target: string,
  liveSource: DataSource,
  live: string,
  partitions: number,
): Promise<Check[]> {
  const now = Date.now();
  const hashOf = async (ds: DataSource, schema: string): Promise<string> => {
    const state = initialLedgerState();
    const store = new LedgerStore(ds, schema, (userId) => partitionForKey(userId, partitions));
    for (let p = 0; p < partitions; p++)
      await store.loadPartition(state, Topics.ledgerCommands.name, p, now, feeAccountIdOf(p));
    return ledgerStateHash(state);
  };
  const [rebuiltHash, liveHash] = [await hashOf(rebuilt, target), await hashOf(liveSource, live)];
  const checks: Check[] = [
    { name: 'state hash', ok: rebuiltHash === liveHash, detail: `rebuilt ${rebuiltHash} live ${liveHash}` },
  ];
  for (const [name, ds, schema] of [
    ['balance invariant (rebuilt)', rebuilt, target],
    ['balance invariant (live)', liveSource, live],
  ] as const) {
    const problems = await balanceInvariantProblems(ds, schema);
    checks.push({
      name,
      ok: problems.length === 0,
      detail: problems.length === 0 ? 'every asset adds up, nothing negative' : problems.join('; '),
    });
  }
  return [
    ...checks,
    ...(await rowCountChecks(
      [
        'accounts',
        'balances',
        'balance_flows',
        'orders',
        'trades',
        'api_keys',
        'contract_balances',
        'contract_positions',
        'contract_orders',
        'contract_trades',
      ],
      rebuilt,
      target,
      liveSource,
      live,
    )),
  ];
}
