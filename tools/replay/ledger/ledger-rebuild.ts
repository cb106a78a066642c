import { type LedgerJournalEvent, Topics } from '@exchange/contracts';
import { feeAccountIdOf, initialLedgerState, ledgerMigrations, LedgerStore, ledgerStateHash, projectionRows, writeProjection } from '@exchange/ledger';
import { partitionForKey } from '@exchange/messaging';
import { openDataSource, resolveDatabase, type RunningDatabase, schemaName } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { Progress } from '../progress';
import type { Check, ReplayContext, ReplayOptions, ReplayResult, ReplayTarget } from '../replay-target';
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
  rebuild: async (ctx, options) => withDatabase(ctx, (database) => rebuild(ctx, options, database.url)),
  switchTo: async (ctx, result) => withDatabase(ctx, (database) => switchSchemas(ctx, result, database.url)),
};

async function withDatabase<T>(ctx: ReplayContext, use: (database: RunningDatabase) => Promise<T>): Promise<T> {
  const database = await resolveDatabase(ctx.config, ctx.logger);
  try {
    return await use(database);
  } finally {
    await database.stop();
  }
}

async function rebuild(ctx: ReplayContext, options: ReplayOptions, url: string): Promise<ReplayResult> {
  const live = schemaName(ctx.config, 'ledger');
  const target = options.into ?? `${live}_rebuilt`;
  if (target === live) throw new Error(`--into ${target} is the live schema`);
  await prepareTarget(url, target, options.into === undefined);
  const rebuilt = await openDataSource({ url, schema: target, entities: [], migrations: ledgerMigrations });
  try {
    const { events, seconds, ends } = await foldJournalInto(ctx, rebuilt, target);
    const checks = await compare(url, rebuilt, target, live, await ctx.log.partitionCount(Topics.ledgerCommands.name));
    return { events, seconds, checks, location: target, position: { [journal]: ends } };
  } finally {
    await rebuilt.destroy();
  }
}

/** Events written per transaction: large enough that commits do not bound the rate. */
const WRITE_BATCH = 10_000;

/**
 * Writes the projection of every event of ledger.events (up to its end at the start) into a
 * migrated, empty schema: one transaction per WRITE_BATCH events, events deduplicated by id.
 */
export async function foldJournalInto(ctx: ReplayContext, rebuilt: DataSource, target: string): Promise<{ events: number; seconds: number; ends: number[] }> {
  const ends = await ctx.log.endOffsets(journal);
  const partitions = await ctx.log.partitionCount(Topics.ledgerCommands.name);
  const partitionOf = (userId: string): number => partitionForKey(userId, partitions);
  const progress = new Progress('ledger', ends.reduce((a, b) => a + b, 0), ctx.progress);
  const seen = new Set<string>();
  let pending: LedgerJournalEvent[] = [];
  const flush = async (): Promise<void> => {
    const events = pending;
    pending = [];
    if (events.length > 0) await rebuilt.transaction((manager) => writeProjection(manager.queryRunner!, target, projectionRows(events, partitionOf)));
  };
  for (let p = 0; p < ends.length; p++) {
    await ctx.log.read(
      journal,
      p,
      0,
      async (records) => {
        for (const record of records) {
          const event = JSON.parse(record.value) as LedgerJournalEvent;
          // The outbox relay publishes at least once: a repeated event id is the same event.
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

/** The default target is ours to replace; a named one must not hold anything yet. */
async function prepareTarget(url: string, schema: string, replaceable: boolean): Promise<void> {
  const admin = await openDataSource({ url, schema, entities: [], migrations: [], readOnly: true });
  try {
    const tables = await admin.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`, [schema]);
    if (tables[0].n === 0) return;
    if (!replaceable) throw new Error(`schema ${schema} already holds tables; choose another --into or drop it`);
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
  } finally {
    await admin.destroy();
  }
}

/**
 * The state hash the ledger computes over what it loads at start (every partition, at one
 * instant), from the rebuilt and the live schema; the balance invariant on both; row counts.
 */
async function compare(url: string, rebuilt: DataSource, target: string, live: string, partitions: number): Promise<Check[]> {
  const liveSource = await openDataSource({ url, schema: live, entities: [], migrations: [], readOnly: true });
  try {
    const now = Date.now();
    const hashOf = async (ds: DataSource, schema: string): Promise<string> => {
      const state = initialLedgerState();
      const store = new LedgerStore(ds, schema, (userId) => partitionForKey(userId, partitions));
      for (let p = 0; p < partitions; p++) await store.loadPartition(state, Topics.ledgerCommands.name, p, now, feeAccountIdOf(p));
      return ledgerStateHash(state);
    };
    const [rebuiltHash, liveHash] = [await hashOf(rebuilt, target), await hashOf(liveSource, live)];
    const checks: Check[] = [{ name: 'state hash', ok: rebuiltHash === liveHash, detail: `rebuilt ${rebuiltHash} live ${liveHash}` }];
    for (const [name, ds, schema] of [
      ['balance invariant (rebuilt)', rebuilt, target],
      ['balance invariant (live)', liveSource, live],
    ] as const) {
      const problems = await balanceInvariantProblems(ds, schema);
      checks.push({ name, ok: problems.length === 0, detail: problems.length === 0 ? 'every asset adds up, nothing negative' : problems.join('; ') });
    }
    for (const table of ['accounts', 'balances', 'balance_flows', 'orders', 'trades', 'api_keys']) {
      const count = async (ds: DataSource, schema: string): Promise<number> => (await ds.query(`SELECT count(*)::int AS n FROM "${schema}".${table}`))[0].n;
      const [r, l] = [await count(rebuilt, target), await count(liveSource, live)];
      checks.push({ name: `rows of ${table}`, ok: r === l, detail: `rebuilt ${r} live ${l}` });
    }
    return checks;
  } finally {
    await liveSource.destroy();
  }
}

/**
 * Makes the rebuilt schema the ledger's: in one transaction that holds the live checkpoints
 * table (so a ledger still running cannot commit meanwhile), the input-side bookkeeping the
 * journal does not carry (checkpoints, processed command ids) is copied over, and the schemas
 * swap names; the old one stays as <live>_replaced_<time> until an operator drops it. Refused
 * while the outbox holds unpublished events or the journal moved since the rebuild read it:
 * the rebuilt copy would lack them.
 */
async function switchSchemas(ctx: ReplayContext, result: ReplayResult, url: string): Promise<string> {
  const live = schemaName(ctx.config, 'ledger');
  const target = result.location;
  const retired = `${live}_replaced_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const ds = await openDataSource({ url, schema: live, entities: [], migrations: [], readOnly: true });
  try {
    await ds.transaction(async (m) => {
      await m.query(`LOCK TABLE "${live}".checkpoints, "${live}".outbox IN ACCESS EXCLUSIVE MODE`);
      const [{ n }] = await m.query(`SELECT count(*)::int AS n FROM "${live}".outbox`);
      if (n > 0) throw new Error(`the live outbox still holds ${n} unpublished events; let the ledger's relay drain it, then rebuild again`);
      const ends = await ctx.log.endOffsets(journal);
      if (ends.some((end, p) => end !== result.position[journal]?.[p])) throw new Error(`${journal} grew since the rebuild read it; stop the ledger and rebuild again`);
      await m.query(`INSERT INTO "${target}".checkpoints SELECT * FROM "${live}".checkpoints`);
      await m.query(`INSERT INTO "${target}".processed_commands SELECT * FROM "${live}".processed_commands ON CONFLICT DO NOTHING`);
      await m.query(`ALTER SCHEMA "${live}" RENAME TO "${retired}"`);
      await m.query(`ALTER SCHEMA "${target}" RENAME TO "${live}"`);
    });
  } finally {
    await ds.destroy();
  }
  return `schema ${target} is now ${live}; the previous one is kept as ${retired}`;
}
