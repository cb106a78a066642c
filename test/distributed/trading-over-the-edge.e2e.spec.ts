import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Topics } from '@exchange/contracts';
import Decimal from 'decimal.js';
import type { EventLog } from '@exchange/messaging';
import { openRunEventLog, waitUntilSettled } from '../support/distributed-checks';
import {
  type DistributedExchange,
  distributedSuiteRuns,
  startDistributedExchange,
} from '../support/distributed-exchange';
import { createFundedUser, freeBalance, type TestUser } from '../support/exchange-actors';
import { http } from '../support/http-client';
import { metricsReport } from '../support/metrics-report';
import { samples } from '../support/prometheus-text';
import { adminCall, signedRequest } from '../support/signed-client';
import { StreamClient } from '../support/stream-client';
import { waitFor } from '../support/wait-for';

type Json = Record<string, unknown>;

const runs = distributedSuiteRuns('distributed exchange behind nginx');

/**
 * The six apps as separate processes (two gateways, two market-data replicas) on the real Kafka,
 * PostgreSQL and Redis, behind nginx running docker-compose's edge configuration; driven only
 * through HTTP, the way a client and an operator reach a deployed exchange.
 */
/** Orders a day per account in this file's exchange: the burst of 60 sends more than it, every other user fewer. */
const BURST_LIMIT = 40;

(runs ? describe : describe.skip)('distributed exchange behind nginx', () => {
  let exchange: DistributedExchange;
  let seller: TestUser;
  let buyer: TestUser;

  beforeAll(async () => {
    // A per-day order limit small enough for the burst below to meet whatever the machine's load
    // (a per-second limit is met only if the burst arrives within a second), and large enough for
    // every other user here.
    exchange = await startDistributedExchange({
      env: { RATE_LIMIT_ORDERS_PER_SECOND: '100000', RATE_LIMIT_ORDERS_PER_DAY: String(BURST_LIMIT) },
    });
    seller = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { ETH: '10' });
    buyer = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { USDT: '100000' });
  }, 180_000);
  afterAll(async () => exchange?.stop(), 60_000);

  it('serves the public endpoints from both market-data replicas through the edge', async () => {
    const [first, second] = exchange.replicas('market-data');
    for (let i = 0; i < 6; i++) {
      const ping = await http(exchange.edgeUrl, 'GET', '/openapi/v1/ping');
      expect([ping.status, ping.body]).toEqual([200, {}]);
    }
    const info = await http<{ symbols: { symbol: string }[]; rateLimits: unknown[] }>(
      exchange.edgeUrl,
      'GET',
      '/openapi/v1/brokerInfo',
    );
    expect(info.status).toBe(200);
    expect(info.body.symbols.map((s) => s.symbol)).toEqual(expect.arrayContaining(['BTCUSDT', 'ETHUSDT', 'ETHBTC']));
    // nginx balanced the pings over both replicas, and each answers the same brokerInfo on its own.
    const upstreams = new Set(
      exchange
        .edgeAccessLog()
        .filter((l) => l.startsWith('GET /openapi/v1/ping 200'))
        .map((l) => l.split(' ')[3]),
    );
    expect(upstreams).toEqual(new Set([first!, second!].map((p) => `127.0.0.1:${p.port}`)));
    for (const replica of [first!, second!]) {
      const direct = await http(replica.url, 'GET', '/openapi/v1/brokerInfo');
      expect(direct.body).toEqual({ ...info.body, serverTime: expect.any(Number) });
    }
  });

  it('answers what nginx itself refuses in the family envelope', async () => {
    expect(await http(exchange.edgeUrl, 'GET', '/no/such/path')).toMatchObject({ status: 404, body: { code: -1020 } });
    const huge = await http(exchange.edgeUrl, 'POST', '/openapi/v1/order', {
      body: 'a='.padEnd(100 * 1024, 'x'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(huge).toMatchObject({ status: 413, body: { code: -1100 } });
  });

  it('trades between two users through the edge and settles both on every gateway replica', async () => {
    const sell = await signedRequest<Json>(exchange.edgeUrl, 'POST', '/openapi/v1/order', seller.key, {
      query: {
        symbol: 'ETHUSDT',
        side: 'SELL',
        type: 'LIMIT',
        price: '3000',
        quantity: '2',
        newClientOrderId: 'edge-sell',
      },
    });
    expect(sell).toMatchObject({ status: 200, body: { status: 'NEW', clientOrderId: 'edge-sell' } });
    const buy = await signedRequest<Json>(exchange.edgeUrl, 'POST', '/openapi/v1/order', buyer.key, {
      query: {
        symbol: 'ETHUSDT',
        side: 'BUY',
        type: 'LIMIT',
        price: '3100',
        quantity: '1.5',
        newOrderRespType: 'FULL',
      },
    });
    expect(buy).toMatchObject({
      status: 200,
      body: { status: 'FILLED', executedQty: '1.5', cummulativeQuoteQty: '4500' },
    });
    // The buyer's own reads reflect the fill at once through the edge (it hashes to one replica).
    expect(await freeBalance(exchange.edgeUrl, buyer, 'ETH')).toBe('1.49850000');

    // Both gateway replicas follow the ledger: each converges to the same balances for both users.
    for (const gateway of exchange.replicas('api-gateway')) {
      await waitFor(
        async () => (await freeBalance(gateway.url, seller, 'USDT')) === '4495.50000000',
        `the seller's settlement on ${gateway.name}`,
        30_000,
      );
      await waitFor(
        async () => (await freeBalance(gateway.url, buyer, 'USDT')) === '95500.00000000',
        `the buyer's settlement on ${gateway.name}`,
        30_000,
      );
    }
    const order = await signedRequest<Json>(exchange.edgeUrl, 'GET', '/openapi/v1/order', seller.key, {
      query: { origClientOrderId: 'edge-sell' },
    });
    expect(order.body).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '1.5', isWorking: true });
    const trades = await signedRequest<Json[]>(exchange.edgeUrl, 'GET', '/openapi/v1/myTrades', buyer.key, {
      query: { symbol: 'ETHUSDT' },
    });
    expect(trades.body).toEqual([
      expect.objectContaining({ price: '3000', qty: '1.5', isBuyer: true, isMaker: false, commissionAsset: 'ETH' }),
    ]);
    const canceled = await signedRequest<Json>(exchange.edgeUrl, 'DELETE', '/openapi/v1/order', seller.key, {
      query: { origClientOrderId: 'edge-sell' },
    });
    expect(canceled.body).toMatchObject({ status: 'CANCELED' });
    expect(await freeBalance(exchange.edgeUrl, seller, 'ETH')).toBe('8.50000000');
  }, 90_000);

  it('answers the same market data from both replicas after the trade', async () => {
    const paths = [
      '/openapi/quote/v1/depth?symbol=ETHUSDT&limit=100',
      '/openapi/quote/v1/trades?symbol=ETHUSDT',
      '/openapi/quote/v1/ticker/price?symbol=ETHUSDT',
      '/api/v2/orderbook/eth-usdt',
    ];
    const [first, second] = exchange.replicas('market-data');
    const answers = (replica: { url: string }) =>
      Promise.all(paths.map(async (path) => JSON.stringify((await http(replica.url, 'GET', path)).body)));
    // Each replica folds order.events on its own: they converge on the same bytes.
    await waitFor(
      async () => JSON.stringify(await answers(first!)) === JSON.stringify(await answers(second!)),
      'both market-data replicas to agree',
      30_000,
    );
    const trades = await http<{ price: string; qty: string }[]>(
      exchange.edgeUrl,
      'GET',
      '/openapi/quote/v1/trades?symbol=ETHUSDT',
    );
    expect(trades.body).toEqual(expect.arrayContaining([expect.objectContaining({ price: '3000.00', qty: '1.5000' })]));
  }, 60_000);

  it('streams the user data of an account through the edge: NEW and CANCELED reports with the balance updates', async () => {
    const opened = await signedRequest<{ listenKey: string }>(
      exchange.edgeUrl,
      'POST',
      '/openapi/v1/userDataStream',
      buyer.key,
    );
    expect(opened.status).toBe(200);
    const stream = await StreamClient.connect(exchange.edgeUrl, opened.body.listenKey);
    try {
      const placed = await signedRequest<Json>(exchange.edgeUrl, 'POST', '/openapi/v1/order', buyer.key, {
        query: {
          symbol: 'ETHUSDT',
          side: 'BUY',
          type: 'LIMIT',
          price: '1500',
          quantity: '0.2',
          newClientOrderId: 'streamed',
        },
      });
      expect(placed.body).toMatchObject({ status: 'NEW' });
      await signedRequest(exchange.edgeUrl, 'DELETE', '/openapi/v1/order', buyer.key, {
        query: { origClientOrderId: 'streamed' },
      });
      await stream.waitForFrames(
        'the NEW and CANCELED reports',
        (frames) => frames.filter((f) => f.e === 'executionReport' && f.c === 'streamed').length >= 2,
      );
      const reports = stream.frames.filter(
        (f) => f.e === 'executionReport' && (f.c === 'streamed' || f.C === 'streamed'),
      );
      expect(reports.map((f) => f.x)).toEqual(['NEW', 'CANCELED']);
      expect(stream.of('outboundAccountInfo').length).toBeGreaterThanOrEqual(2);
    } finally {
      stream.ws.close();
    }
  }, 60_000);

  it('withdraws through the edge to a whitelisted address, through the audits and the chain, with exact balances', async () => {
    const admin = <T = Json>(method: string, path: string, body?: unknown) =>
      adminCall<T>(exchange.edgeUrl, exchange.adminToken, method, path, body);
    expect(
      (
        await admin('POST', '/admin/v1/withdrawal-addresses', {
          accountId: seller.mainAccountId,
          tokenId: 'ETH',
          address: '0xexternal',
        })
      ).status,
    ).toBe(200);
    const before = await freeBalance(exchange.edgeUrl, seller, 'ETH');
    const requested = await signedRequest<{ orderId: string; status: number }>(
      exchange.edgeUrl,
      'POST',
      '/openapi/v1/withdraw',
      seller.key,
      {
        query: { tokenId: 'ETH', address: '0xexternal', withdrawalQuantity: '3', clientOrderId: 'edge-w-1' },
      },
    );
    expect(requested.status).toBe(200);
    const orderId = requested.body.orderId;
    // 3 ETH is above the automatic-approval bound: both audits are the operator's.
    expect(requested.body.status).toBe(1);
    expect((await admin('POST', `/admin/v1/withdrawals/${orderId}/approve`)).body).toMatchObject({ status: 3 });
    expect((await admin('POST', `/admin/v1/withdrawals/${orderId}/approve`)).body).toMatchObject({ status: 5 });
    expect((await admin('POST', `/admin/v1/chain/withdrawals/${orderId}/confirm`)).body).toMatchObject({ status: 6 });
    const detail = await signedRequest<Json>(exchange.edgeUrl, 'GET', '/openapi/v1/withdraw/detail', seller.key, {
      query: { orderId },
    });
    expect(detail.body).toMatchObject({ status: 6, quantity: '3', isInternalTransfer: false });
    // quantity + fee (0.005 ETH) left the account.
    const expected = new Decimal(before!).minus('3.005').toFixed(8);
    await waitFor(
      async () => (await freeBalance(exchange.edgeUrl, seller, 'ETH')) === expected,
      'the debit of the withdrawal',
      30_000,
    );
  }, 90_000);

  it('carries the X-Request-Id of an order through every topic it touches and into the logs', async () => {
    const requestId = `trace-${Date.now()}`;
    const answer = await signedRequest<Json>(exchange.edgeUrl, 'POST', '/openapi/v1/order', buyer.key, {
      query: {
        symbol: 'ETHUSDT',
        side: 'BUY',
        type: 'LIMIT',
        price: '1000',
        quantity: '0.1',
        newClientOrderId: 'traced',
      },
      headers: { 'X-Request-Id': requestId },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    const generated = await http(exchange.edgeUrl, 'GET', '/openapi/v1/time');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const log = openRunEventLog(exchange);
    try {
      const traced = await tracedRecords(log, requestId);
      expect(traced).toEqual(
        expect.arrayContaining([
          'ledger.commands PlaceOrder',
          'order.commands SubmitOrder',
          'order.events OrderAccepted',
          'order.events OrderRested',
          'ledger.events OrderPlaced',
        ]),
      );
    } finally {
      await log.close();
    }
    const gateway = exchange.processes.find((p) =>
      readFileSync(p.logFile, 'utf8').includes(`"correlationId":"${requestId}"`),
    );
    expect(gateway?.app).toBe('api-gateway');
  });

  it('shares one order-rate limit between the gateway replicas through Redis', async () => {
    const burst = await createFundedUser(exchange.edgeUrl, exchange.adminToken, { USDT: '1000' });
    const gateways = exchange.replicas('api-gateway');
    const before = await rateLimitRejections(exchange);
    // Sent alternately to each replica: a limit counted in each replica alone would accept all 60
    // (30 each); one counter shared through Redis accepts exactly the limit.
    // The widest recvWindow: on a loaded machine a request can wait seconds for its turn, which is not what this test is about.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        signedRequest<Json>(gateways[i % gateways.length]!.url, 'POST', '/openapi/v1/order', burst.key, {
          query: {
            symbol: 'ETHUSDT',
            side: 'BUY',
            type: 'LIMIT',
            timeInForce: 'IOC',
            price: '1000',
            quantity: '0.01',
            newClientOrderId: `burst-${i}`,
          },
          recvWindow: 60_000,
        }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted.length + refused.length).toBe(60);
    expect(accepted.length).toBe(BURST_LIMIT);
    for (const a of accepted) expect(a.body).toMatchObject({ status: 'CANCELED' });
    for (const r of refused)
      expect([r.body.code, Number(r.headers.get('retry-after'))]).toEqual([-1015, expect.any(Number)]);
    expect((await rateLimitRejections(exchange)) - before).toBe(refused.length);
    // Every IOC ended below the market: nothing stays locked.
    expect(await freeBalance(exchange.edgeUrl, burst, 'USDT')).toBe('1000.00000000');
  }, 60_000);

  it('serves Prometheus metrics on every app: requests by route and code, consumer lag, consumed records', async () => {
    const text = async (url: string): Promise<string> => (await http<string>(url, 'GET', '/metrics')).body;
    const gateways = (await Promise.all(exchange.replicas('api-gateway').map((g) => text(g.metricsUrl)))).join('\n');
    expect(
      samples(gateways, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/openapi/v1/order',
        status: '200',
      }).reduce((a, b) => a + b, 0),
    ).toBeGreaterThan(0);
    expect(samples(gateways, 'gateway_pipeline_lag', {})).toHaveLength(2);
    // Each gateway polls the pipeline's lag; right after the burst above it may still count it. Settled, it is at most a commit marker per partition.
    await waitFor(async () => {
      const lags = samples(
        (await Promise.all(exchange.replicas('api-gateway').map((g) => text(g.metricsUrl)))).join('\n'),
        'gateway_pipeline_lag',
        {},
      );
      return lags.length === 2 && lags.every((lag) => lag < 20);
    }, 'both gateways to see the pipeline settled');
    const ledger = await text(exchange.replicas('ledger')[0]!.metricsUrl);
    expect(
      samples(ledger, 'event_log_consumer_lag', { group: 'ledger', topic: 'ledger.commands' }).length,
    ).toBeGreaterThan(0);
    expect(samples(ledger, 'ledger_batch_commands_count', {})[0]).toBeGreaterThan(0);
    const engine = await text(exchange.replicas('matching-engine')[0]!.metricsUrl);
    expect(
      samples(engine, 'event_log_consumed_records_total', { group: 'matching-engine', topic: 'order.commands' })[0],
    ).toBeGreaterThan(0);
    for (const p of exchange.processes)
      expect(samples(await text(p.metricsUrl), 'process_cpu_seconds_total', { service: p.app })).toHaveLength(1);
    // Open sockets: every market-data replica and the user stream count theirs.
    for (const p of exchange.replicas('market-data'))
      expect(samples(await text(p.metricsUrl), 'market_data_stream_sockets', {})).toHaveLength(1);
    expect(
      samples(await text(exchange.replicas('user-stream')[0]!.metricsUrl), 'user_stream_sockets', {}),
    ).toHaveLength(1);
    // What an operator would see after the session above, for the run's log.
    console.log(`metrics after the trading session:\n${await metricsReport(exchange.processes)}`);
  });

  it('rebuilds every service (ledger, matching engine, market data, wallet, user streams) from its journal with the replay CLI, equal to the live state', async () => {
    const log: EventLog = openRunEventLog(exchange);
    try {
      await waitUntilSettled(exchange, log);
    } finally {
      await log.close();
    }
    // A graceful stop makes the engine write a snapshot at its committed offset: the fold must hash alike there.
    const [engine] = exchange.replicas('matching-engine');
    await exchange.kill(engine!, 'SIGTERM');

    const ledger = await replay(exchange, 'ledger');
    expect(ledger.code).toBe(0);
    expect(ledger.stdout).toMatch(
      /ledger: rebuilt \d+ events in [\d.]+ s \(\d+ events\/s\) into d[0-9a-f]+_ledger_rebuilt/,
    );
    expect(ledger.stdout).toMatch(/ok {7}state hash: rebuilt ([0-9a-f]{64}) live \1/);
    expect(ledger.stdout).toContain('ok       balance invariant (rebuilt)');
    expect(ledger.stderr).toMatch(/events\/s .* remaining {2}ETA/);

    const books = await replay(exchange, 'matching-engine');
    expect(books.code).toBe(0);
    expect(books.stdout).toMatch(
      /ok {7}snapshot ETHUSDT: at order\.commands\/\d+@\d+: rebuilt ([0-9a-f]{64}) live snapshot \1/,
    );
    expect(books.stdout).toMatch(/ok {7}order\.events\/\d+: [1-9]\d* events equal to the live journal/);
    expect(books.stdout).not.toContain('MISMATCH');

    // The market-data replicas keep serving: the rebuild reads up to the checkpoints their history writer stored.
    const market = await replay(exchange, 'market-data');
    expect(market.code).toBe(0);
    expect(market.stdout).toMatch(
      /market-data: rebuilt [1-9]\d* events in [\d.]+ s \(\d+ events\/s\) into d[0-9a-f]+_market_data_rebuilt/,
    );
    expect(market.stdout).toMatch(/ok {7}state hash: rebuilt ([0-9a-f]{64}) live \1/);
    expect(market.stdout).toMatch(/ok {7}fold hash: rebuilt ([0-9a-f]{64}) live-start \1/);
    expect(market.stdout).toMatch(/ok {7}rows of trades: rebuilt ([1-9]\d*) live \1/);

    const wallet = await replay(exchange, 'wallet');
    expect(wallet.code).toBe(0);
    expect(wallet.stdout).toMatch(
      /wallet: rebuilt [1-9]\d* events in [\d.]+ s \(\d+ events\/s\) into d[0-9a-f]+_wallet_rebuilt/,
    );
    expect(wallet.stdout).toMatch(/ok {7}state hash: rebuilt ([0-9a-f]{64}) live \1/);
    expect(wallet.stdout).toMatch(/ok {7}rows of withdrawals: rebuilt [1-9]\d* live [1-9]\d*/);

    const streams = await replay(exchange, 'user-stream', '--into', join(exchange.workDir, 'replay-user-stream'));
    expect(streams.code).toBe(0);
    expect(streams.stdout).toMatch(/user-stream: rebuilt [1-9]\d* events in [\d.]+ s \(\d+ events\/s\) into /);
    expect(streams.stdout).toMatch(/ok {7}state hash: rebuilt ([0-9a-f]{64}) live \1/);
    expect(streams.stdout).toMatch(/ok {7}accounts: rebuilt ([1-9]\d*) live \1/);

    // Switching the ledger to its rebuilt copy: the ledger restarts on it and keeps serving.
    const [ledgerProcess] = exchange.replicas('ledger');
    await exchange.kill(ledgerProcess!, 'SIGTERM');
    const switched = await replay(exchange, 'ledger', '--switch');
    expect(switched.code).toBe(0);
    expect(switched.stdout).toContain(`_ledger_rebuilt is now ${exchange.schemaPrefix}ledger`);
    await exchange.restart(ledgerProcess!);
    await exchange.restart(engine!);
    const transfer = await signedRequest<Json>(exchange.edgeUrl, 'POST', '/openapi/v1/transfer', buyer.key, {
      query: { tokenId: 'USDT', amount: '1', toAccountType: 3 },
    });
    expect(transfer.status).toBe(200);
    // 95,500 after the trade, 100 locked by the traced order, 1 transferred.
    expect(await freeBalance(exchange.edgeUrl, buyer, 'USDT')).toBe('95399.00000000');
  }, 240_000);
});

/** `npm run replay -- <args>` as an operator runs it, in the run's namespace and schema prefix. */
function replay(
  exchange: DistributedExchange,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH!,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
    DATABASE_URL: exchange.databaseUrl,
    EVENT_LOG_NAMESPACE: exchange.namespace,
    DATABASE_SCHEMA_PREFIX: exchange.schemaPrefix,
  };
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['scripts/run.js', 'tools/replay/replay-cli.ts', ...args],
      { cwd: resolve(__dirname, '../..'), env },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `<topic> <message type>` of every record on the pipeline's topics that carries the correlation id. */
async function tracedRecords(log: EventLog, correlationId: string): Promise<string[]> {
  const found: string[] = [];
  for (const topic of [
    Topics.ledgerCommands.name,
    Topics.orderCommands.name,
    Topics.orderEvents.name,
    Topics.ledgerEvents.name,
  ]) {
    for (let p = 0; p < (await log.partitionCount(topic)); p++) {
      await log.read(topic, p, 0, async (records) => {
        for (const r of records)
          if (r.headers['x-correlation-id'] === correlationId)
            found.push(`${topic} ${(JSON.parse(r.value) as { type: string }).type}`);
      });
    }
  }
  return found;
}

/** Requests the gateways refused for a rate limit, summed over both replicas. */
async function rateLimitRejections(exchange: DistributedExchange): Promise<number> {
  let total = 0;
  for (const gateway of exchange.replicas('api-gateway'))
    total += samples(
      (await http<string>(gateway.metricsUrl, 'GET', '/metrics')).body,
      'rate_limit_rejections_total',
    ).reduce((a, b) => a + b, 0);
  return total;
}
