import { join } from 'node:path';
import { type LedgerJournalEvent, Topics } from '@exchange/contracts';
import type { LedgerState } from '@exchange/ledger';
import { EmbeddedEventLog } from '@exchange/messaging';
import { openDataSource } from '@exchange/platform';
import { assertBalanceInvariant } from './balance-invariant';
import { type ExchangeProcess, spawnExchange, waitUntilServing } from './exchange-process';
import { decideJournal, recoveredState, timelessHash } from './ledger-replay';
import { metricsLagProbe, outboxProbe, waitUntilQuiet } from './quiet-pipeline';

export interface Recovery {
  journaled: Map<string, LedgerJournalEvent>;
  /** The ledger's state as a restarted ledger loads it from its tables. */
  recovered: LedgerState;
}

/**
 * What every kill -9 test of the embedded exchange checks after the kill: restart, wait until the
 * pipeline is quiet, stop cleanly; then the ledger's tables equal deciding every journaled command
 * once (journaled event ids = decided ones, same state hash), no order.events id twice, and the
 * balances add up. `more` checks what the test is about; the restarted process is handed back.
 */
export async function restartAndCompare(
  env: { DATA_DIR: string; DATABASE_URL: string; DATABASE_SCHEMA_PREFIX: string },
  more: (recovery: Recovery) => void,
): Promise<ExchangeProcess> {
  const schema = `${env.DATABASE_SCHEMA_PREFIX}ledger`;
  const exchange = spawnExchange(env);
  await waitUntilServing(exchange);
  const dataSource = await openDataSource({
    url: env.DATABASE_URL,
    schema,
    entities: [],
    migrations: [],
    readOnly: true,
  });
  try {
    await waitUntilQuiet(
      [metricsLagProbe(exchange.metricsUrl), outboxProbe((sql) => dataSource.query(sql), [schema])],
      'the pipeline to settle',
    );
    exchange.child.kill('SIGTERM');
    await exchange.exited();

    const { state, eventIds, journaled, partitions } = await decideJournal(env.DATA_DIR);
    expect([...journaled.keys()].sort()).toEqual([...eventIds].sort());
    const recovered = await recoveredState(dataSource, schema, partitions);
    more({ journaled, recovered });
    expect(timelessHash(recovered)).toBe(timelessHash(state));

    const log = await EmbeddedEventLog.open({ dir: join(env.DATA_DIR, 'event-log') });
    const ids: string[] = [];
    for (let p = 0; p < (await log.partitionCount(Topics.orderEvents.name)); p++) {
      await log.read(
        Topics.orderEvents.name,
        p,
        0,
        async (records) => void ids.push(...records.map((r) => (JSON.parse(r.value) as { id: string }).id)),
      );
    }
    await log.close();
    expect(new Set(ids).size).toBe(ids.length);
    await assertBalanceInvariant(env.DATABASE_URL, schema);
  } finally {
    await dataSource.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await dataSource.destroy();
  }
  return exchange;
}
