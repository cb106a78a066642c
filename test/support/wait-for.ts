/** Polls until `check` holds or the deadline passes; tests wait on conditions, never on sleeps. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000, intervalMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Waits until a service's pipeline is quiet: its checkpoints stopped moving between two polls a
 * second apart and its outboxes are empty. `schemas` are the services' schemas (each with
 * `checkpoints(next_offset)` and `outbox` tables), read through `query`.
 */
export async function waitUntilQuiet(query: (sql: string) => Promise<{ progress: string }[]>, schemas: string[], what: string): Promise<void> {
  const sum = (parts: string[]) => parts.join(' + ');
  const sql = `SELECT (${sum(schemas.map((s) => `(SELECT coalesce(sum(next_offset), 0) FROM "${s}".checkpoints)`))})::text || '/' || (${sum(schemas.map((s) => `(SELECT count(*) FROM "${s}".outbox)`))})::text AS progress`;
  let last = '';
  await waitFor(async () => {
    const [row] = await query(sql);
    const quiet = row!.progress === last && row!.progress.endsWith('/0');
    last = row!.progress;
    return quiet;
  }, what, 60_000, 1000);
}
