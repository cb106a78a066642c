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

interface Restored {
  partition: number;
  snapshotInputOffset?: number;
  fromEventsOffset: number;
  folded: number;
}

/**
 * The ledger restarts from its latest snapshot on ledger.snapshots plus the ledger.events after
 * it, never from the whole journal: after a kill -9 it folds only the tail, and holds exactly
 * what deciding every journaled command once gives.
 */
describe('ledger restart from snapshot and journal tail', () => {
  const { dataDir, prefix, env } = exchangeTestBed('ledger-snapshot', {
    LEDGER_SNAPSHOT_EVERY: '10',
    LOG_LEVEL: 'info',
  });
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  const restoredLines = (output: string): Restored[] =>
    output
      .split('\n')
      .filter((line) => line.includes('partition restored from snapshot and journal'))
      .map((line) => JSON.parse(line) as Restored);

  const contractOrder = (user: TestUser, side: string, price: string, clientOrderId: string) =>
    signedRequest(exchange.baseUrl, 'POST', '/openapi/contract/v1/order', user.key, {
      query: {
        symbol: 'BTC-SWAP-USDT',
        side,
        price,
        quantity: '3',
        clientOrderId,
        ...(side.endsWith('OPEN') ? { leverage: '10' } : {}),
      },
    });

  it('folds only the events after the snapshot, and recovers to the exactly-once state, contracts included', async () => {
    exchange = spawnExchange(env);
    const token = await adminTokenOnceReady(exchange, dataDir);
    const users: TestUser[] = [];
    for (let i = 0; i < 3; i++) users.push(await createFundedUser(exchange.baseUrl, token, { USDT: '1000' }));
    // Contract state for the snapshots to hold: USDT in the contracts accounts, a long and a short, a resting order with a client id.
    for (const u of users)
      await signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/transfer', u.key, {
        query: { tokenId: 'USDT', amount: '100', toAccountType: 3 },
      });
    expect((await contractOrder(users[0]!, 'BUY_OPEN', '29000', 'rest-0')).body).toMatchObject({ status: 'NEW' });
    expect((await contractOrder(users[1]!, 'BUY_OPEN', '30000', 'long-1')).body).toMatchObject({ status: 'NEW' });
    expect((await contractOrder(users[2]!, 'SELL_OPEN', '30000', 'short-2')).body).toMatchObject({ status: 'FILLED' });
    for (let round = 0; round < 15; round++) {
      await Promise.all(
        users.map((u) =>
          signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/transfer', u.key, {
            query: { tokenId: 'USDT', amount: '1', toAccountType: 3 },
          }),
        ),
      );
    }
    exchange.child.kill('SIGKILL');
    await exchange.exited();

    exchange = spawnExchange(env);
    await waitUntilServing(exchange);
    await Promise.all(
      users.map((u) =>
        signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/transfer', u.key, {
          query: { tokenId: 'USDT', amount: '1', toAccountType: 3 },
        }),
      ),
    );
    // Decided on the restored contracts: the resting order found by its client id, the positions closed.
    expect(
      (
        await signedRequest(exchange.baseUrl, 'DELETE', '/openapi/contract/v1/order/cancel', users[0]!.key, {
          query: { clientOrderId: 'rest-0' },
        })
      ).body,
    ).toMatchObject({ status: 'CANCELED' });
    expect((await contractOrder(users[1]!, 'SELL_CLOSE', '30000', 'close-1')).body).toMatchObject({ status: 'NEW' });
    expect((await contractOrder(users[2]!, 'BUY_CLOSE', '30000', 'close-2')).body).toMatchObject({ status: 'FILLED' });
    const restored = restoredLines(exchange.output());
    const fromSnapshot = restored.filter((r) => r.snapshotInputOffset !== undefined && r.snapshotInputOffset > 0);
    expect(fromSnapshot.length).toBeGreaterThan(0);
    // A snapshot every 10 commands: the tail folded is shorter than that many commands' events.
    for (const r of fromSnapshot) expect(r.folded).toBeLessThan(40);
    exchange.child.kill('SIGTERM');
    await exchange.exited();

    const log = await EmbeddedEventLog.open({ dir: join(dataDir, 'event-log') });
    const eventEnds = await log.endOffsets(Topics.ledgerEvents.name);
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
      await waitFor(async () => {
        const rows: { partition: number; next_offset: string }[] = await dataSource.query(
          `SELECT partition, next_offset FROM "${prefix}ledger".projection_checkpoints`,
        );
        return eventEnds.every(
          (end, p) => end === 0 || Number(rows.find((r) => r.partition === p)?.next_offset ?? -1) >= end,
        );
      }, 'the projection to hold every journaled event');
      exchange.child.kill('SIGTERM');
      await exchange.exited();
      const { state: expected, partitions } = await decideJournal(dataDir);
      expect(timelessHash(await recoveredState(dataSource, `${prefix}ledger`, partitions))).toBe(
        timelessHash(expected),
      );
    } finally {
      await dataSource.query(`DROP SCHEMA IF EXISTS "${prefix}ledger" CASCADE`);
      await dataSource.destroy();
    }
  }, 180_000);
});
