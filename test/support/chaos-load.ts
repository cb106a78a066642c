import type { DistributedExchange } from './distributed-exchange';
import type { TestUser } from './exchange-actors';
import type { HttpAnswer } from './http-client';
import type { SeededRandom } from './seeded-random';
import { adminCall, signedRequest } from './signed-client';

export const requestKinds = ['order', 'cancel', 'transfer', 'withdrawal', 'deposit', 'confirmation'] as const;
export type RequestKind = (typeof requestKinds)[number];

/** What became of the requests of one kind: 200, another 4xx (a business answer), 5xx (-1016 / -1007), or no HTTP answer at all. */
export interface Tally {
  sent: number;
  ok: number;
  refused: number;
  unavailable: number;
  noAnswer: number;
  /** How many answers of each error code (`-1007`, `-2013`, …). */
  codes: Record<string, number>;
}

export interface ChaosActors {
  /** Sell ETH, withdraw ETH to `withdrawalAddress`, receive ETH deposits. */
  sellers: TestUser[];
  /** Buy ETH, transfer USDT to their contracts account (type 3), receive USDT deposits. */
  buyers: TestUser[];
  withdrawalAddress: string;
}

export interface AnsweredOrder {
  user: TestUser;
  orderId: string;
  clientOrderId: string;
  status: string;
  executedQty: string;
}
export interface AnsweredWithdrawal {
  user: TestUser;
  orderId: string;
  clientOrderId: string;
  status: number;
}
export interface Answered {
  orders: AnsweredOrder[];
  /** Orders a cancel was answered 200 (CANCELED) for. */
  cancels: AnsweredOrder[];
  transfers: { user: TestUser; amount: string }[];
  withdrawals: AnsweredWithdrawal[];
  deposits: { user: TestUser; orderId: string }[];
  /** Withdrawals the simulated chain was answered 200 (status 6) for. */
  confirmations: AnsweredWithdrawal[];
}

export interface PlannedRequest {
  kind: RequestKind;
  send(): Promise<void>;
}

type Body = Record<string, unknown>;

/**
 * Mixed load through the edge, drawn from a seeded generator: crossing and resting ETHUSDT orders,
 * cancels of orders earlier rounds left resting, USDT transfers to the contracts account (each of
 * a unique amount, so the balance flow shows which one arrived), ETH withdrawals below the
 * automatic-approval bound, deposits, and chain confirmations of earlier withdrawals. It records
 * every request that got a 200 so a check can find it afterwards with the same or a later state,
 * and tallies every answer by kind.
 */
export class ChaosLoad {
  readonly tally = Object.fromEntries(
    requestKinds.map((k) => [k, { sent: 0, ok: 0, refused: 0, unavailable: 0, noAnswer: 0, codes: {} }]),
  ) as Record<RequestKind, Tally>;
  readonly answered: Answered = {
    orders: [],
    cancels: [],
    transfers: [],
    withdrawals: [],
    deposits: [],
    confirmations: [],
  };
  /** Non-200 answers outside the `{code, msg}` envelope (there should be none). */
  readonly outsideEnvelope: string[] = [];
  private seq = 0;
  private readonly aimedAt = new Set<string>();

  constructor(
    private readonly exchange: DistributedExchange,
    private readonly actors: ChaosActors,
    private readonly random: SeededRandom,
  ) {}

  /**
   * One round's requests in a random order. Every parameter is drawn here, in a fixed sequence, so
   * a seed draws the same plan; only which earlier order a cancel (or withdrawal a confirmation)
   * aims at depends on what earlier rounds got answered.
   */
  plan(round: number, counts: Record<RequestKind, number>): PlannedRequest[] {
    const planned: PlannedRequest[] = [];
    for (const kind of requestKinds)
      for (let i = 0; i < counts[kind]; i++) planned.push({ kind, send: this.draw(kind, round) });
    return this.random.shuffle(planned);
  }

  private draw(kind: RequestKind, round: number): () => Promise<void> {
    const n = ++this.seq;
    const { sellers, buyers } = this.actors;
    switch (kind) {
      case 'order': {
        const sell = this.random.next() < 0.5;
        const user = this.random.pick(sell ? sellers : buyers);
        // Most near the market, where they cross; some far from it, where they rest for a later cancel.
        const far = this.random.next() < 0.3;
        const price = String(
          far ? (sell ? this.random.int(3010, 3100) : this.random.int(2900, 2990)) : this.random.int(2995, 3005),
        );
        const quantity = (this.random.int(1, 10) / 10).toFixed(1);
        return () => this.order(user, sell ? 'SELL' : 'BUY', price, quantity, `chaos-${round}-${n}`);
      }
      case 'cancel': {
        const draw = this.random.next();
        const byClientId = this.random.next() < 0.5;
        return () =>
          this.cancel(
            this.target(
              this.answered.orders.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED'),
              draw,
            ),
            byClientId,
          );
      }
      case 'transfer': {
        const user = this.random.pick(buyers);
        // Unique per run (n), so the balance flow tells which transfer arrived.
        const amount = `1.${String(n).padStart(6, '0')}`;
        return () => this.transfer(user, amount);
      }
      case 'withdrawal': {
        const user = this.random.pick(sellers);
        return () => this.withdraw(user, `chaos-w-${n}`);
      }
      case 'deposit': {
        const toSeller = this.random.next() < 0.5;
        const user = this.random.pick(toSeller ? sellers : buyers);
        const [asset, amount] = toSeller ? ['ETH', '1'] : ['USDT', '1000'];
        return () => this.deposit(user, asset, amount, `chaos-d-${n}`);
      }
      case 'confirmation': {
        const draw = this.random.next();
        return () =>
          this.confirm(
            this.target(
              this.answered.withdrawals.filter((w) => w.status === 5),
              draw,
            ),
          );
      }
    }
  }

  /** The earlier answer a cancel or a confirmation aims at: drawn among those no request aimed at yet. */
  private target<T extends { orderId: string }>(candidates: T[], draw: number): T | undefined {
    const free = candidates.filter((c) => !this.aimedAt.has(c.orderId));
    const chosen = free[Math.floor(draw * free.length)];
    if (chosen) this.aimedAt.add(chosen.orderId);
    return chosen;
  }

  private order(user: TestUser, side: string, price: string, quantity: string, clientOrderId: string): Promise<void> {
    return this.call(
      'order',
      () =>
        signedRequest<Body>(this.exchange.edgeUrl, 'POST', '/openapi/v1/order', user.key, {
          query: {
            symbol: 'ETHUSDT',
            side,
            type: 'LIMIT',
            price,
            quantity,
            newClientOrderId: clientOrderId,
            newOrderRespType: 'RESULT',
          },
          recvWindow: 60_000,
        }),
      (body) =>
        this.answered.orders.push({
          user,
          orderId: String(body.orderId),
          clientOrderId,
          status: String(body.status),
          executedQty: String(body.executedQty),
        }),
    );
  }

  /** A cancel with no resting order left to aim at asks for one that does not exist: still a request with an answer (-2013). */
  private cancel(order: AnsweredOrder | undefined, byClientId: boolean): Promise<void> {
    const user = order?.user ?? this.actors.buyers[0]!;
    const query: Record<string, string> =
      order && !byClientId
        ? { symbol: 'ETHUSDT', orderId: order.orderId }
        : { symbol: 'ETHUSDT', origClientOrderId: order?.clientOrderId ?? 'chaos-none' };
    return this.call(
      'cancel',
      () =>
        signedRequest<Body>(this.exchange.edgeUrl, 'DELETE', '/openapi/v1/order', user.key, {
          query,
          recvWindow: 60_000,
        }),
      (body) => {
        if (order && body.status === 'CANCELED') this.answered.cancels.push(order);
      },
    );
  }

  private transfer(user: TestUser, amount: string): Promise<void> {
    return this.call(
      'transfer',
      () =>
        signedRequest<Body>(this.exchange.edgeUrl, 'POST', '/openapi/v1/transfer', user.key, {
          query: { tokenId: 'USDT', amount, toAccountType: 3 },
          recvWindow: 60_000,
        }),
      () => this.answered.transfers.push({ user, amount }),
    );
  }

  private withdraw(user: TestUser, clientOrderId: string): Promise<void> {
    return this.call(
      'withdrawal',
      () =>
        signedRequest<Body>(this.exchange.edgeUrl, 'POST', '/openapi/v1/withdraw', user.key, {
          query: { tokenId: 'ETH', address: this.actors.withdrawalAddress, withdrawalQuantity: '0.5', clientOrderId },
          recvWindow: 60_000,
        }),
      (body) =>
        this.answered.withdrawals.push({
          user,
          orderId: String(body.orderId),
          clientOrderId,
          status: Number(body.status),
        }),
    );
  }

  private deposit(user: TestUser, asset: string, amount: string, txid: string): Promise<void> {
    return this.call(
      'deposit',
      () =>
        adminCall<Body>(this.exchange.edgeUrl, this.exchange.adminToken, 'POST', '/admin/v1/deposits', {
          accountId: user.mainAccountId,
          asset,
          amount,
          txid,
        }),
      (body) => {
        if (body.status === 'CREDITED') this.answered.deposits.push({ user, orderId: String(body.orderId) });
      },
    );
  }

  /** A confirmation with no withdrawal left to aim at asks for one that does not exist. */
  private confirm(withdrawal: AnsweredWithdrawal | undefined): Promise<void> {
    return this.call(
      'confirmation',
      () =>
        adminCall<Body>(
          this.exchange.edgeUrl,
          this.exchange.adminToken,
          'POST',
          `/admin/v1/chain/withdrawals/${withdrawal?.orderId ?? '1'}/confirm`,
        ),
      (body) => {
        if (withdrawal && body.status === 6) this.answered.confirmations.push(withdrawal);
      },
    );
  }

  private async call(
    kind: RequestKind,
    request: () => Promise<HttpAnswer<Body>>,
    onOk: (body: Body) => void,
  ): Promise<void> {
    const tally = this.tally[kind];
    tally.sent++;
    let answer: HttpAnswer<Body>;
    try {
      answer = await request();
    } catch {
      tally.noAnswer++;
      return;
    }
    if (answer.status === 200) {
      tally.ok++;
      onOk(answer.body);
      return;
    }
    if (answer.status >= 500) tally.unavailable++;
    else tally.refused++;
    const body = answer.body as { code?: unknown; msg?: unknown } | string;
    if (typeof body !== 'object' || typeof body.code !== 'number' || body.code >= 0 || typeof body.msg !== 'string') {
      this.outsideEnvelope.push(`${kind}: ${answer.status} ${JSON.stringify(body).slice(0, 200)}`);
      return;
    }
    tally.codes[body.code] = (tally.codes[body.code] ?? 0) + 1;
  }
}

/** `kind sent/ok/refused/unavailable/no answer` per kind, for the run's log. */
export function formatTally(tally: Record<RequestKind, Tally>): string {
  const codes = (t: Tally): string =>
    Object.entries(t.codes)
      .map(([code, n]) => `${code}×${n}`)
      .join(' ');
  return requestKinds
    .map(
      (k) =>
        `${k.padEnd(12)} sent ${tally[k].sent}, answered 200 ${tally[k].ok}, 4xx ${tally[k].refused}, 5xx ${tally[k].unavailable}, no answer ${tally[k].noAnswer}  ${codes(tally[k])}`,
    )
    .join('\n');
}
