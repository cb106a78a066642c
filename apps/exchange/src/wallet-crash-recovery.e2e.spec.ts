import 'reflect-metadata';
import { join } from 'node:path';
import { Topics, type WithdrawalRecord } from '@exchange/contracts';
import { EmbeddedEventLog } from '@exchange/messaging';
import { openDataSource } from '@exchange/platform';
import { assertBalanceInvariant } from '../../../test/support/balance-invariant';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import {
  type ExchangeProcess,
  exchangeTestBed,
  spawnExchange,
  waitUntilServing,
  adminTokenOnceReady,
} from '../../../test/support/exchange-process';
import { decideJournal, recoveredState, timelessHash } from '../../../test/support/ledger-replay';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { metricsLagProbe, outboxProbe, waitUntilQuiet } from '../../../test/support/quiet-pipeline';
import { waitFor } from '../../../test/support/wait-for';

/** What the ledger must hold for a withdrawal in each wallet status: debited at 6, released when rejected or failed, held otherwise. */
const ledgerStatusFor = (status: number): string =>
  status === 6 ? 'SETTLED' : [2, 4, 7].includes(status) ? 'RELEASED' : 'HELD';

/**
 * kill -9 of the exchange (wallet and ledger together) in the middle of withdrawals moving
 * through their steps and deposits being credited. After a restart: the ledger equals deciding
 * every journaled command once, the wallet decided each command once (relayed repeats are identical), every withdrawal's hold
 * in the ledger matches its status in the wallet, and the balances add up.
 */
describe('wallet crash recovery', () => {
  const { dataDir, prefix, env } = exchangeTestBed('wallet-crash');
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  it('neither creates nor loses money across a kill -9 between withdrawal steps', async () => {
    exchange = spawnExchange(env);
    const token = await adminTokenOnceReady(exchange, dataDir);
    const admin = (method: string, path: string, body?: unknown) =>
      adminCall<{ orderId?: string }>(exchange.baseUrl, token, method, path, body).catch(() => undefined);
    const users: TestUser[] = [];
    for (let i = 0; i < 3; i++) {
      const user = await createFundedUser(exchange.baseUrl, token, { BTC: '10' });
      await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/withdrawal-addresses', {
        accountId: user.mainAccountId,
        tokenId: 'BTC',
        address: 'bc1qcrash',
      });
      users.push(user);
    }
    // Each lane: a withdrawal (small ones skip the audits, large ones are approved or rejected), then the chain's verdict; deposits alongside.
    const lane = async (user: TestUser, i: number): Promise<void> => {
      const large = i % 3 === 0;
      const answer = await signedRequest<{ orderId?: string }>(
        exchange.baseUrl,
        'POST',
        '/openapi/v1/withdraw',
        user.key,
        {
          query: {
            tokenId: 'BTC',
            clientOrderId: `crash-${i}`,
            address: 'bc1qcrash',
            withdrawalQuantity: large ? '0.2' : '0.05',
          },
        },
      ).catch(() => undefined);
      const id = answer?.body.orderId;
      if (!id) return;
      if (large && i % 2 === 0) {
        await admin('POST', `/admin/v1/withdrawals/${id}/reject`, {});
        return;
      }
      if (large) for (let k = 0; k < 2; k++) await admin('POST', `/admin/v1/withdrawals/${id}/approve`, {});
      await admin('POST', `/admin/v1/chain/withdrawals/${id}/${i % 4 === 1 ? 'fail' : 'confirm'}`, {});
    };
    const burst = users.flatMap((u, j) => [
      ...Array.from({ length: 15 }, (_, i) => lane(u, i + j * 100)),
      ...Array.from({ length: 5 }, (_, i) =>
        admin('POST', '/admin/v1/deposits', {
          accountId: u.mainAccountId,
          asset: 'BTC',
          amount: '0.01',
          txid: `crash-dep-${j}-${i}`,
        }),
      ),
    ]);
    // Kill once the first withdrawals went all the way, while the others are between steps.
    const watch = await openDataSource({
      url: env.DATABASE_URL,
      schema: `${prefix}wallet`,
      entities: [],
      migrations: [],
      readOnly: true,
    });
    await waitFor(
      async () =>
        (await watch.query(`SELECT count(*)::int AS n FROM "${prefix}wallet".withdrawals WHERE status = 6`))[0].n >= 2,
      'the first successful withdrawals',
      30_000,
      10,
    );
    await watch.destroy();
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');
    await Promise.all(burst);

    exchange = spawnExchange(env);
    await waitUntilServing(exchange);
    const db = await openDataSource({
      url: env.DATABASE_URL,
      schema: `${prefix}ledger`,
      entities: [],
      migrations: [],
      readOnly: true,
    });
    try {
      await waitUntilQuiet(
        [
          metricsLagProbe(exchange.metricsUrl),
          outboxProbe((sql) => db.query(sql), [`${prefix}ledger`, `${prefix}wallet`]),
        ],
        'ledger and wallet to settle',
      );
      exchange.child.kill('SIGTERM');
      await exchange.exited();

      const { state, eventIds, journaled, partitions } = await decideJournal(dataDir);
      expect([...journaled.keys()].sort()).toEqual([...eventIds].sort());
      expect(timelessHash(await recoveredState(db, `${prefix}ledger`, partitions))).toBe(timelessHash(state));

      const log = await EmbeddedEventLog.open({ dir: join(dataDir, 'event-log') });
      // The outbox relay publishes at least once (a kill between publishing and deleting repeats a
      // batch), so ids may repeat; a repeat must be the same record, never a second decision.
      const walletEvents = new Map<string, Set<string>>();
      for (let p = 0; p < (await log.partitionCount(Topics.walletEvents.name)); p++) {
        await log.read(Topics.walletEvents.name, p, 0, async (records) => {
          for (const r of records) {
            const id = (JSON.parse(r.value) as { id: string }).id;
            walletEvents.set(id, (walletEvents.get(id) ?? new Set()).add(r.value));
          }
        });
      }
      await log.close();
      expect([...walletEvents.values()].filter((copies) => copies.size > 1)).toEqual([]);

      const wallet: { record: WithdrawalRecord }[] = await db.query(`SELECT record FROM "${prefix}wallet".withdrawals`);
      const ledger: { withdrawal_id: string; status: string }[] = await db.query(
        `SELECT withdrawal_id::text, status FROM "${prefix}ledger".withdrawals`,
      );
      expect(wallet.length).toBeGreaterThan(0);
      expect(wallet.length).toBe(ledger.length);
      const held = new Map(ledger.map((w) => [w.withdrawal_id, w.status]));
      for (const { record } of wallet)
        expect([record.withdrawalId, held.get(record.withdrawalId)]).toEqual([
          record.withdrawalId,
          ledgerStatusFor(record.status),
        ]);
      expect(wallet.some(({ record }) => record.status === 6)).toBe(true);
      expect(wallet.some(({ record }) => record.status !== 6)).toBe(true);
      await assertBalanceInvariant(env.DATABASE_URL, `${prefix}ledger`);
    } finally {
      for (const schema of ['ledger', 'wallet']) await db.query(`DROP SCHEMA IF EXISTS "${prefix}${schema}" CASCADE`);
      await db.destroy();
    }
  }, 180_000);
});
