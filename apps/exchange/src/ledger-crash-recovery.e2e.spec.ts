import 'reflect-metadata';
import { join } from 'node:path';
import { Topics } from '@exchange/contracts';
import { EmbeddedEventLog } from '@exchange/messaging';
import { openDataSource } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import {
  type ExchangeProcess,
  exchangeTestBed,
  spawnExchange,
  waitUntilServing,
  adminTokenOnceReady,
} from '../../../test/support/exchange-process';
import { decideJournal, recoveredState, timelessHash } from '../../../test/support/ledger-replay';
import { signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';

/**
 * kill -9 of the ledger (the whole embedded process) in the middle of a burst of transfers. After a
 * restart the ledger must hold exactly what deciding every accepted command once gives: no
 * command lost, none applied twice, flows and balances as an uninterrupted run would leave them.
 */
describe('ledger crash recovery', () => {
  const { dataDir, prefix, env } = exchangeTestBed('ledger-crash');
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  it('recovers to the state of deciding every journaled command exactly once', async () => {
    exchange = spawnExchange(env);
    const token = await adminTokenOnceReady(exchange, dataDir);
    const users: TestUser[] = [];
    for (let i = 0; i < 4; i++) users.push(await createFundedUser(exchange.baseUrl, token, { USDT: '1000' }));

    const burst = users.flatMap((u) =>
      Array.from({ length: 60 }, (_, i) =>
        signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/transfer', u.key, {
          query: { tokenId: 'USDT', amount: '7.5', toAccountType: i % 2 === 0 ? 3 : 2 },
        }).catch(() => undefined),
      ),
    );
    await new Promise((r) => setTimeout(r, 150));
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');
    await Promise.all(burst);

    // Restart, let the ledger catch up with everything journaled, stop cleanly, then compare.
    exchange = spawnExchange(env);
    await waitUntilServing(exchange);
    exchange.child.kill('SIGTERM');
    await exchange.exited();
    const log = await EmbeddedEventLog.open({ dir: join(dataDir, 'event-log') });
    const commandEnds = await log.endOffsets(Topics.ledgerCommands.name);
    await log.close();

    exchange = spawnExchange(env);
    await waitUntilServing(exchange);
    const dataSource = await openDataSource({
      url: env.DATABASE_URL,
      schema: `${prefix}ledger`,
      entities: [],
      migrations: [],
      readOnly: true,
    });
    try {
      await waitFor(
        async () => {
          const rows: { partition: number; next_offset: string }[] = await dataSource.query(
            `SELECT partition, next_offset FROM "${prefix}ledger".checkpoints`,
          );
          const outbox = await dataSource.query(`SELECT count(*)::int AS n FROM "${prefix}ledger".outbox`);
          return (
            outbox[0].n === 0 &&
            commandEnds.every(
              (end, p) => end === 0 || Number(rows.find((r) => r.partition === p)?.next_offset ?? -1) === end,
            )
          );
        },
        'the ledger to apply every journaled command',
        30_000,
      );
      exchange.child.kill('SIGTERM');
      await exchange.exited();

      const { state: expected, eventIds: expectedIds, journaled, partitions } = await decideJournal(dataDir);
      expect([...journaled.keys()].sort()).toEqual([...expectedIds].sort());
      expect(timelessHash(await recoveredState(dataSource, `${prefix}ledger`, partitions))).toBe(
        timelessHash(expected),
      );
      const transfers = [...journaled.values()].filter((e) => e.type === 'FundsTransferred').length;
      expect(transfers).toBeGreaterThan(0);
    } finally {
      await dataSource.query(`DROP SCHEMA IF EXISTS "${prefix}ledger" CASCADE`);
      await dataSource.destroy();
    }
  }, 180_000);
});
