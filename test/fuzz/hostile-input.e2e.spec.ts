import 'reflect-metadata';
import fc from 'fast-check';
import { judgeAnswer, type Violation } from './answer-oracle';
import { FuzzReport, fuzzSettings } from './fuzz-report';
import { describeInput, type HttpInput, type RecentIds, renderRequest } from './http-input';
import { httpInputs, nulSweep } from './http-input.arbitrary';
import { LedgerWatch } from './ledger-watch';
import { documentedEndpoints, type Endpoint, type EndpointClass } from './openapi-endpoints';
import type { FuzzWorld } from './plausible-values';
import { rawRequest } from './raw-http';
import { handshakeInputs, renderHandshake, socketFrames } from './socket-input.arbitrary';
import { judgePublicStreamMessage, judgeUserStreamMessage, SocketProbe } from './socket-probe';
import { createFundedUser, type TestUser } from '../support/exchange-actors';
import { signedRequest } from '../support/signed-client';
import { startTestExchange, type TestExchange } from '../support/test-exchange';

/**
 * Generated hostile input against every documented endpoint (docs/openapi.json) and both socket
 * protocols of the embedded exchange. It fails on an answer that is missing, a 5xx, outside the
 * `{code, msg}` envelope or the documented success shape, an invalid input accepted, a replayed
 * state-changing call accepted, any balance moved by a rejected input, and a process that stopped
 * serving. Every violation is kept and reported with its input; FUZZ_SEED and FUZZ_RUNS replay a run.
 */
const { seed, runs } = fuzzSettings();
const report = new FuzzReport(seed, runs);
process.stderr.write(`hostile-input fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${runs}\n`);

/** Beyond the gateway's own 10 s wait for an outcome (504 / -1007): silence past it is no answer. */
const ANSWER_TIMEOUT_MS = 12_000;
const SOCKET_TIMEOUT_MS = 5_000;
const TEST_TIMEOUT_MS = 600_000;

describe(`hostile input (FUZZ_SEED=${seed} FUZZ_RUNS=${runs})`, () => {
  let exchange: TestExchange;
  let port: number;
  let user: TestUser;
  let world: FuzzWorld;
  let watch: LedgerWatch;
  const endpoints = documentedEndpoints();
  const started = Date.now();

  beforeAll(async () => {
    // Limits out of the way, so the input reaches the handlers instead of -1003 / -1015.
    exchange = await startTestExchange({
      env: {
        RATE_LIMIT_WEIGHT_PER_MINUTE: '100000000',
        RATE_LIMIT_ORDERS_PER_SECOND: '100000',
        RATE_LIMIT_ORDERS_PER_DAY: '100000000',
      },
    });
    port = Number(new URL(exchange.baseUrl).port);
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    user = await createFundedUser(exchange.baseUrl, token, { USDT: '10000000', BTC: '1000', ETH: '10000' });
    const listen = await signedRequest<{ listenKey: string }>(
      exchange.baseUrl,
      'POST',
      '/openapi/v1/userDataStream',
      user.key,
    );
    const { markets, config } = exchange.infrastructure;
    world = {
      symbols: markets.symbols.map((s) => s.symbol),
      assets: markets.assets.map((a) => a.asset),
      accountId: user.mainAccountId,
      userId: user.userId,
      listenKey: listen.body.listenKey,
    };
    watch = await LedgerWatch.open(
      config.DATABASE_URL!,
      config.DATABASE_SCHEMA_PREFIX ?? '',
      exchange.infrastructure.eventLog,
    );
    // The balance oracle means something only if the snapshot sees the signed account's money.
    await watch.settle();
    expect(await watch.snapshot()).toContain(`${user.mainAccountId}/USDT/10000000`);
  }, 120_000);

  afterAll(async () => {
    process.stderr.write(
      `hostile-input fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${runs}, ${Math.round((Date.now() - started) / 1000)} s\n${report.countsText()}\n`,
    );
    await watch?.close();
    await exchange?.close();
  });

  /** Thrown with the report itself, so jest prints it as written. */
  const assertClean = (area: string): void => {
    if (report.of(area).length > 0) throw new Error(report.summary(area));
  };

  const recent: RecentIds = { orderId: [], clientOrderId: [] };
  const ctx = () => ({
    now: Date.now(),
    recent,
    apiKey: user.key.apiKey,
    secretKey: user.key.secretKey,
    adminToken: exchange.infrastructure.config.ADMIN_TOKEN!,
  });

  /** Orders the fuzz placed become names later inputs may use (to query, cancel, or reuse a client order id). */
  function remember(body: string): void {
    try {
      const parsed = JSON.parse(body) as { orderId?: unknown; clientOrderId?: unknown };
      for (const key of ['orderId', 'clientOrderId'] as const) {
        const id = parsed[key];
        if (typeof id === 'string' && id !== '' && !recent[key].includes(id))
          recent[key] = [...recent[key], id].slice(-64);
      }
    } catch {
      // Not JSON: nothing to remember.
    }
  }

  /** The process answers a plain GET: what "still serving" means after a violation. */
  async function stillServing(): Promise<Violation[]> {
    const answer = await rawRequest(
      port,
      Buffer.from('GET /openapi/v1/time HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      { timeoutMs: ANSWER_TIMEOUT_MS },
    );
    return answer.kind === 'answer' && answer.status === 200
      ? []
      : [
          {
            kind: 'process stopped serving',
            detail: `GET /openapi/v1/time: ${answer.kind === 'answer' ? answer.status : answer.kind}`,
          },
        ];
  }

  interface Sent {
    bytes: Buffer;
    violations: Violation[];
    status: number | undefined;
    code: number | undefined;
    body: string;
    outcome: string;
  }

  async function send(input: HttpInput, rendered?: Buffer): Promise<Sent> {
    const bytes = rendered ?? renderRequest(input, ctx());
    const answer = await rawRequest(port, bytes, { timeoutMs: ANSWER_TIMEOUT_MS, head: input.method === 'HEAD' });
    const path = bytes.toString('latin1').split(' ')[1] ?? '';
    const violations = judgeAnswer(answer, {
      endpoints,
      method: input.method,
      path,
      ...(input.mustReject ? { mustReject: input.mustReject } : {}),
    });
    let code: number | undefined;
    if (answer.kind === 'answer') {
      try {
        code = (JSON.parse(answer.body.toString()) as { code?: number }).code;
      } catch {
        code = undefined;
      }
    }
    const answered = answer.kind === 'answer';
    if (answered && answer.status < 300) remember(answer.body.toString());
    return {
      bytes,
      violations,
      status: answered ? answer.status : undefined,
      code,
      body: answered ? answer.body.toString() : '',
      outcome: answered ? `${String(answer.status)[0]}xx` : answer.kind,
    };
  }

  /**
   * Sends the same bytes again. A replay that executes a second time (API-DECISIONS.md: a
   * state-changing signed request is accepted once) shows as a second success that moved
   * balances again or answered something new (another order id); a read answered alike is harmless.
   */
  async function replayed(input: HttpInput, first: Sent, balancesBefore: string | undefined): Promise<Violation[]> {
    const again = await rawRequest(port, first.bytes, { timeoutMs: ANSWER_TIMEOUT_MS });
    const path = first.bytes.toString('latin1').split(' ')[1] ?? '';
    const violations = judgeAnswer(again, { endpoints, method: input.method, path });
    if (first.status === undefined || first.status >= 300 || again.kind !== 'answer' || again.status >= 300)
      return violations;
    let moved = false;
    if (balancesBefore !== undefined) {
      await watch.settle();
      moved = (await watch.snapshot()) !== balancesBefore;
    }
    if (moved || again.body.toString() !== first.body)
      violations.push({
        kind: 'replay accepted',
        detail: `the same signed ${input.method} answered ${first.status} then ${again.status}${moved ? ', moving balances again' : ''}: ${again.body.toString().slice(0, 160)}`,
      });
    return violations;
  }

  /** The same bytes twice at once (concurrent cancels once answered 504): two successes that differ executed twice. */
  async function sentAtOnce(input: HttpInput, violations: Violation[]): Promise<Sent> {
    const bytes = renderRequest(input, ctx());
    const [first, second] = await Promise.all([send(input, bytes), send(input, bytes)]);
    violations.push(...second.violations);
    if (
      first.status !== undefined &&
      first.status < 300 &&
      second.status !== undefined &&
      second.status < 300 &&
      first.body !== second.body
    ) {
      violations.push({
        kind: 'replay accepted',
        detail: `the same signed ${input.method} sent twice at once answered ${first.status} and ${second.status}: ${first.body.slice(0, 120)} / ${second.body.slice(0, 120)}`,
      });
    }
    return first;
  }

  async function fuzzHttp(area: string, classes: EndpointClass[], watchBalances: boolean): Promise<void> {
    const chosen: Endpoint[] = endpoints.filter((e) => classes.includes(e.cls));
    const names = [...new Set(endpoints.flatMap((e) => e.params.map((p) => p.name)))];
    const inputs = [
      ...fc.sample(httpInputs(chosen, world, names), { seed, numRuns: runs }),
      ...nulSweep(chosen, world, seed),
    ];
    const start = Date.now();
    let before = watchBalances ? await watch.snapshot() : '';
    for (const [i, input] of inputs.entries()) {
      const violations: Violation[] = [];
      const first = input.replay === 'concurrent' ? await sentAtOnce(input, violations) : await send(input);
      violations.push(...first.violations);
      report.count(area, `${input.endpoint.method} ${input.endpoint.path}`);
      report.count(area, first.outcome);
      if (watchBalances) {
        await watch.settle();
        const after = await watch.snapshot();
        const rejected = first.status !== undefined && first.status >= 400 && first.status < 500;
        if (rejected && after !== before)
          violations.push({
            kind: 'balances changed on a rejected input',
            detail: `answered ${first.status} ${first.code ?? ''}; balances before ${before} after ${after}`,
          });
        before = after;
      }
      if (input.replay === 'after')
        violations.push(...(await replayed(input, first, watchBalances ? before : undefined)));
      if (watchBalances && input.replay === 'after') {
        await watch.settle();
        before = await watch.snapshot();
      }
      if (violations.length > 0 || i % 50 === 49) violations.push(...(await stillServing()));
      if (process.env.FUZZ_VERBOSE)
        process.stderr.write(
          `${area} #${i}: ${first.status ?? first.outcome} ${first.body.slice(0, 80)} <- ${describeInput(input).slice(0, 300)}\n`,
        );
      report.add(
        area,
        `${input.endpoint.method} ${input.endpoint.path}`,
        describeInput(input),
        first.bytes,
        violations,
      );
      if (violations.some((v) => v.kind === 'process stopped serving')) break;
    }
    report.took(area, Date.now() - start);
    process.stderr.write(report.summary(area) + '\n');
  }

  it(
    'public endpoints answer every input inside the envelope or their documented shape',
    async () => {
      await fuzzHttp('public HTTP', ['public', 'stream'], false);
      assertClean('public HTTP');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'signed endpoints refuse what is invalid, and no refused input moves a balance',
    async () => {
      await fuzzHttp('signed HTTP', ['signed'], true);
      assertClean('signed HTTP');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'operator endpoints answer every input inside the envelope, and no refused input moves a balance',
    async () => {
      await fuzzHttp('operator HTTP', ['operator'], true);
      assertClean('operator HTTP');
    },
    TEST_TIMEOUT_MS,
  );

  async function fuzzSocket(
    area: string,
    path: string,
    judge: (v: unknown) => string | undefined,
    userStreamPrefix?: string,
  ): Promise<void> {
    const start = Date.now();
    const probe = new SocketProbe(`ws://127.0.0.1:${port}${path}`, judge);
    await probe.open();
    const frames = fc.sample(socketFrames(world.symbols), { seed, numRuns: runs });
    for (const [i, frame] of frames.entries()) {
      const violations = await probe.send(frame, SOCKET_TIMEOUT_MS);
      report.count(area, `frame: ${frame.label}`);
      if (violations.length > 0 || i % 50 === 49) violations.push(...(await stillServing()));
      report.add(
        area,
        'frame',
        `${frame.label} (${frame.binary ? 'binary' : 'text'}, ${frame.data.length} bytes)`,
        frame.data.subarray(0, 300),
        violations,
      );
      if (violations.some((v) => v.kind === 'process stopped serving')) break;
    }
    probe.close();
    const handshakes = fc.sample(handshakeInputs(), { seed, numRuns: Math.max(10, Math.round(runs / 4)) });
    for (const handshake of handshakes) {
      const bytes = renderHandshake(handshake, path, userStreamPrefix);
      const answer = await rawRequest(port, bytes, { timeoutMs: ANSWER_TIMEOUT_MS, head: handshake.method === 'HEAD' });
      report.count(area, 'handshake');
      const target = bytes.toString('latin1').split(' ')[1] ?? '';
      const violations: Violation[] = [];
      if (answer.kind === 'answer' && answer.status === 101) {
        if (userStreamPrefix && !handshake.keepKey)
          violations.push({ kind: 'invalid input accepted', detail: `a user stream opened on ${target.slice(0, 80)}` });
      } else violations.push(...judgeAnswer(answer, { endpoints, method: handshake.method, path: target }));
      if (violations.length > 0) violations.push(...(await stillServing()));
      report.add(area, 'handshake', handshake.label, bytes, violations);
      if (violations.some((v) => v.kind === 'process stopped serving')) break;
    }
    report.took(area, Date.now() - start);
    process.stderr.write(report.summary(area) + '\n');
  }

  it(
    'the public stream answers every frame and handshake inside the envelope and keeps serving',
    async () => {
      await fuzzSocket('public stream', '/openapi/quote/ws/v1', judgePublicStreamMessage);
      assertClean('public stream');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the user stream answers every frame and handshake inside the envelope and keeps serving',
    async () => {
      // The signed fuzz may have deleted the key (DELETE userDataStream is a legitimate call): take the live one.
      const listen = await signedRequest<{ listenKey: string }>(
        exchange.baseUrl,
        'POST',
        '/openapi/v1/userDataStream',
        user.key,
      );
      await fuzzSocket('user stream', `/openapi/ws/${listen.body.listenKey}`, judgeUserStreamMessage, '/openapi/ws/');
      assertClean('user stream');
    },
    TEST_TIMEOUT_MS,
  );
});
