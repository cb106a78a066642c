import 'reflect-metadata';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createLogger, openDataSource, schemaName } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { StreamClient } from '../../../test/support/stream-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { metricsLagProbe, outboxProbe, waitUntilQuiet } from '../../../test/support/quiet-pipeline';
import { waitFor } from '../../../test/support/wait-for';
import type { ReplayContext, ReplayResult } from '../replay-target';
import { userStreamReplay } from './user-stream-rebuild';

jest.setTimeout(120_000);

type Balance = { a: string; f: string; l: string };
type RebuiltAccount = {
  accountId: string;
  userId: string;
  flags: { canTrade: boolean; canWithdraw: boolean; canDeposit: boolean };
  lastSeq: number;
  balances: Balance[];
};

/** The lines the CLI prints for the checks (replay-cli.ts report). */
const checkLines = (result: ReplayResult): string =>
  result.checks.map((c) => `  ${c.ok ? 'ok      ' : 'MISMATCH'} ${c.name}: ${c.detail}`).join('\n');

describe('user-stream replay: ledger.events folded into account streams, against what a replica would start from', () => {
  let exchange: TestExchange;
  let ledger: DataSource;
  let schema: string;
  let maker: TestUser;
  let taker: TestUser;
  let sub: { accountId: string; accountIndex: number };
  let makerStream: StreamClient;
  const out = mkdtempSync(join(tmpdir(), 'user-stream-replay-'));

  const call = <T = Record<string, unknown>>(
    user: TestUser,
    method: string,
    path: string,
    query: Record<string, string | number> = {},
  ) => signedRequest<T>(exchange.baseUrl, method, path, user.key, { query });
  const rebuild = (into: string): Promise<ReplayResult> => {
    const progress = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
    const { config, eventLog, markets } = exchange.infrastructure;
    const ctx: ReplayContext = {
      config,
      log: eventLog,
      markets,
      logger: createLogger('replay', 'silent'),
      say: () => undefined,
      progress,
    };
    return userStreamReplay.rebuild(ctx, { into: join(out, into), switch: false, force: false });
  };

  beforeAll(async () => {
    exchange = await startTestExchange({ env: { REDIS_URL: '' } });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    schema = schemaName(exchange.infrastructure.config, 'ledger');
    ledger = await openDataSource({
      url: process.env.DATABASE_URL!,
      schema,
      entities: [],
      migrations: [],
      readOnly: true,
    });

    // The maker's socket is open before its first deposit: it sees every frame of the account.
    maker = await createFundedUser(exchange.baseUrl, token);
    makerStream = await StreamClient.connect(
      exchange.baseUrl,
      (await call<{ listenKey: string }>(maker, 'POST', '/openapi/v1/userDataStream')).body.listenKey,
    );
    expect(
      (
        await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/deposits', {
          accountId: maker.mainAccountId,
          asset: 'BTC',
          amount: '2',
        })
      ).status,
    ).toBe(200);
    taker = await createFundedUser(exchange.baseUrl, token, { USDT: '200000' });
    sub = (
      await adminCall<{ accountId: string; accountIndex: number }>(
        exchange.baseUrl,
        token,
        'POST',
        `/admin/v1/users/${taker.userId}/sub-accounts`,
        { accountName: 'bot' },
      )
    ).body;
    expect(
      await call(taker, 'POST', '/openapi/v1/transfer', {
        tokenId: 'USDT',
        amount: '100',
        toAccountType: 1,
        toAccountIndex: sub.accountIndex,
      }),
    ).toMatchObject({ status: 200 });
    // Into the contracts account, whose own stream shows its USDT (free, and locked plus position margin).
    expect(
      await call(taker, 'POST', '/openapi/v1/transfer', {
        tokenId: 'USDT',
        amount: '1000',
        fromAccountType: 1,
        toAccountType: 3,
      }),
    ).toMatchObject({ status: 200 });

    const sell = await call<{ orderId: string }>(maker, 'POST', '/openapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      price: '60000',
      quantity: '1',
    });
    expect(sell.status).toBe(200);
    expect(
      (
        await call(taker, 'POST', '/openapi/v1/order', {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '61000',
          quantity: '0.4',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(taker, 'POST', '/openapi/v1/order', {
          symbol: 'ETHUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '1000',
          quantity: '1',
          newClientOrderId: 'replay-cancel',
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(taker, 'DELETE', '/openapi/v1/order', { symbol: 'ETHUSDT', origClientOrderId: 'replay-cancel' }))
        .body,
    ).toMatchObject({ status: 'CANCELED' });
    expect(
      (
        await adminCall(exchange.baseUrl, token, 'POST', `/admin/v1/accounts/${taker.mainAccountId}/flags`, {
          canWithdraw: false,
        })
      ).status,
    ).toBe(200);

    await waitFor(
      async () =>
        (await call<{ status: string }>(maker, 'GET', '/openapi/v1/order', { orderId: sell.body.orderId })).body
          .status === 'PARTIALLY_FILLED',
      'the partial fill',
    );
    await makerStream.waitForFrames('the partial fill on the stream', (frames) =>
      frames.some((f) => f.x === 'PARTIALLY_FILLED'),
    );
    // The hash compares a quiet exchange: the ledger has decided every command and its projection holds every event.
    await waitUntilQuiet(
      [metricsLagProbe(exchange.metricsUrl), outboxProbe((sql) => ledger.query(sql), [schema])],
      'the ledger and its projection to catch up',
    );
  });

  afterAll(async () => {
    makerStream?.close();
    await ledger?.destroy();
    await exchange?.close();
  });

  it('rebuilds every user account with the flags, sequences and balances the ledger holds, and the frames the live stream sent', async () => {
    const result = await rebuild('quiet');
    const lines = checkLines(result);
    expect(lines).toMatch(/ok {7}state hash: rebuilt ([0-9a-f]{64}) live \1/);
    // Two users of three accounts each, and the taker's sub-account; the fee account has no user and no stream.
    expect(lines).toContain('ok       accounts: rebuilt 7 live 7');
    expect(lines).toContain('ok       differing accounts: none');
    expect(lines).toContain('ok       ledger outbox: empty');
    expect(result.checks.every((c) => c.ok)).toBe(true);
    expect(result.events).toBeGreaterThan(10);

    const written = JSON.parse(readFileSync(join(result.location, 'account-streams.json'), 'utf8')) as {
      stateHash: string;
      frames: Record<string, number>;
      accounts: RebuiltAccount[];
    };
    expect(lines).toContain(`rebuilt ${written.stateHash} live`);
    expect(written.frames.executionReport).toBeGreaterThanOrEqual(5);
    const account = (id: string): RebuiltAccount => written.accounts.find((a) => a.accountId === id)!;
    expect(account(taker.mainAccountId).flags).toEqual({ canTrade: true, canWithdraw: false, canDeposit: true });
    expect(account(sub.accountId).balances).toEqual([{ a: 'USDT', f: '100.00000000', l: '0.00000000' }]);

    // The maker's socket saw every frame of its account: the last balance of each asset it got is what the fold streamed.
    const streamed = new Map<string, Balance>();
    for (const frame of makerStream.of('outboundAccountInfo'))
      for (const b of frame.B as Balance[]) streamed.set(b.a, b);
    expect(account(maker.mainAccountId).balances.sort((x, y) => x.a.localeCompare(y.a))).toEqual(
      [...streamed.values()].sort((x, y) => x.a.localeCompare(y.a)),
    );
    expect(streamed.get('BTC')).toEqual({ a: 'BTC', f: '1.00000000', l: '0.60000000' });
  });

  it("says MISMATCH, naming the account, when a balance in the ledger's live tables no longer follows from its journal", async () => {
    const tamper = (delta: string) =>
      ledger.query(`UPDATE "${schema}".balances SET free = free + $3::numeric WHERE account_id = $1 AND asset = $2`, [
        maker.mainAccountId,
        'BTC',
        delta,
      ]);
    await tamper('0.5');
    try {
      const result = await rebuild('tampered');
      const lines = checkLines(result);
      expect(lines).toMatch(/MISMATCH state hash: rebuilt [0-9a-f]{64} live [0-9a-f]{64}/);
      const [, rebuilt, live] = /state hash: rebuilt ([0-9a-f]{64}) live ([0-9a-f]{64})/.exec(lines)!;
      expect(rebuilt).not.toBe(live);
      expect(lines).toContain(`MISMATCH differing accounts: 1: ${maker.mainAccountId}`);
      expect(lines).toContain('ok       accounts: rebuilt 7 live 7');
    } finally {
      // The exchange checks its balance invariant when it closes.
      await tamper('-0.5');
    }
  });
});
