import { openDataSource, resolveDatabase, type RunningDatabase, schemaName } from '@exchange/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type { Check, ReplayContext, ReplayOptions, ReplayResult } from './replay-target';

/** Runs `use` with the exchange's database (DATABASE_URL, or the embedded one under DATA_DIR) and stops it after. */
export async function withDatabase<T>(ctx: ReplayContext, use: (database: RunningDatabase) => Promise<T>): Promise<T> {
  const database = await resolveDatabase(ctx.config, ctx.logger);
  try {
    return await use(database);
  } finally {
    await database.stop();
  }
}

/** A service whose state is a set of PostgreSQL tables folded from one journal topic. */
export interface SchemaService {
  /** Its schema is schemaName(config, service). */
  service: string;
  migrations: Parameters<typeof openDataSource>[0]['migrations'];
  /** Folds the journal into the migrated, empty `target` schema. */
  fold(rebuilt: DataSource, target: string): Promise<Omit<ReplayResult, 'location' | 'checks'> & { checks?: Check[] }>;
  /** Compares the rebuilt schema with the live one (opened read-only). */
  compare(rebuilt: DataSource, target: string, live: DataSource, liveSchema: string): Promise<Check[]>;
}

/** Rebuilds a schema service into `--into` or `<live>_rebuilt`, then compares it with the live schema. */
export async function rebuildSchema(
  ctx: ReplayContext,
  options: ReplayOptions,
  service: SchemaService,
): Promise<ReplayResult> {
  return withDatabase(ctx, async ({ url }) => {
    const live = schemaName(ctx.config, service.service);
    const target = options.into ?? `${live}_rebuilt`;
    if (target === live) throw new Error(`--into ${target} is the live schema`);
    await prepareTarget(url, target, options.into === undefined);
    const rebuilt = await openDataSource({ url, schema: target, entities: [], migrations: service.migrations });
    const liveSource = await openDataSource({ url, schema: live, entities: [], migrations: [], readOnly: true });
    try {
      const folded = await service.fold(rebuilt, target);
      const checks = [...(await service.compare(rebuilt, target, liveSource, live)), ...(folded.checks ?? [])];
      return { ...folded, checks, location: target };
    } finally {
      await liveSource.destroy();
      await rebuilt.destroy();
    }
  });
}

/** Switches a schema service to its rebuilt copy (see switchToRebuiltSchema). */
export async function switchSchema(
  ctx: ReplayContext,
  result: ReplayResult,
  service: string,
  journal: string,
  options: { projected?: boolean } = {},
): Promise<string> {
  return withDatabase(ctx, ({ url }) =>
    switchToRebuiltSchema(ctx, result, url, {
      live: schemaName(ctx.config, service),
      journal,
      projected: options.projected ?? false,
    }),
  );
}

/** One check per table: the same number of rows in both schemas. */
export async function rowCountChecks(
  tables: readonly string[],
  rebuilt: DataSource,
  target: string,
  live: DataSource,
  liveSchema: string,
): Promise<Check[]> {
  const count = async (ds: DataSource, schema: string, table: string): Promise<number> =>
    (await ds.query(`SELECT count(*)::int AS n FROM "${schema}".${table}`))[0].n;
  const checks: Check[] = [];
  for (const table of tables) {
    const [r, l] = [await count(rebuilt, target, table), await count(live, liveSchema, table)];
    checks.push({ name: `rows of ${table}`, ok: r === l, detail: `rebuilt ${r} live ${l}` });
  }
  return checks;
}

/**
 * Makes sure a rebuild can write into `schema`: the default target (`<live>_rebuilt`) is ours to
 * replace; a schema the operator named with --into must not hold anything yet.
 */
export async function prepareTarget(url: string, schema: string, replaceable: boolean): Promise<void> {
  const admin = await openDataSource({ url, schema, entities: [], migrations: [], readOnly: true });
  try {
    const tables = await admin.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`,
      [schema],
    );
    if (tables[0].n === 0) return;
    if (!replaceable) throw new Error(`schema ${schema} already holds tables; choose another --into or drop it`);
    await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
  } finally {
    await admin.destroy();
  }
}

/**
 * Makes the rebuilt schema the service's (ledger, wallet: both keep the bookkeeping tables of
 * @exchange/messaging): while the live checkpoints and outbox are locked (so a service still
 * running cannot commit meanwhile), the input-side bookkeeping the journal does not carry
 * (checkpoints, processed command ids) is copied over. Refused while the outbox holds unpublished
 * events or the journal moved since the rebuild read it: the rebuilt copy would lack them.
 */
async function switchToRebuiltSchema(
  ctx: ReplayContext,
  result: ReplayResult,
  url: string,
  { live, journal, projected }: { live: string; journal: string; projected: boolean },
): Promise<string> {
  const target = result.location;
  return switchSchemas(url, live, target, async (m) => {
    await m.query(`LOCK TABLE "${live}".checkpoints, "${live}".outbox IN ACCESS EXCLUSIVE MODE`);
    const [{ n }] = await m.query(`SELECT count(*)::int AS n FROM "${live}".outbox`);
    if (n > 0)
      throw new Error(
        `the live outbox still holds ${n} unpublished events; let the service's relay drain it, then rebuild again`,
      );
    const ends = await ctx.log.endOffsets(journal);
    if (ends.some((end, p) => end !== result.position[journal]?.[p]))
      throw new Error(`${journal} grew since the rebuild read it; stop the service and rebuild again`);
    await m.query(`INSERT INTO "${target}".checkpoints SELECT * FROM "${live}".checkpoints`);
    await m.query(
      `INSERT INTO "${target}".processed_commands SELECT * FROM "${live}".processed_commands ON CONFLICT DO NOTHING`,
    );
    // A projection's own position (the ledger's tables): the rebuilt copy holds the journal up to where the rebuild read it.
    if (projected) {
      const position = result.position[journal] ?? [];
      await m.query(
        `INSERT INTO "${target}".projection_checkpoints SELECT $1, p - 1, o FROM unnest($2::bigint[]) WITH ORDINALITY AS t(o, p)`,
        [journal, position],
      );
    }
  });
}

/**
 * Makes `rebuilt` the service's schema, in one transaction: `underLock` takes the locks that keep
 * a live service from committing meanwhile, refuses (throws, which rolls everything back) when the
 * rebuilt copy lacks something, and copies what the journal does not carry; then the schemas swap
 * names. The old one stays as <live>_replaced_<time> until an operator drops it.
 */
export async function switchSchemas(
  url: string,
  live: string,
  rebuilt: string,
  underLock: (manager: EntityManager) => Promise<void>,
): Promise<string> {
  const retired = `${live}_replaced_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const ds = await openDataSource({ url, schema: live, entities: [], migrations: [], readOnly: true });
  try {
    await ds.transaction(async (m) => {
      await underLock(m);
      await m.query(`ALTER SCHEMA "${live}" RENAME TO "${retired}"`);
      await m.query(`ALTER SCHEMA "${rebuilt}" RENAME TO "${live}"`);
    });
  } finally {
    await ds.destroy();
  }
  return `schema ${rebuilt} is now ${live}; the previous one is kept as ${retired}`;
}
