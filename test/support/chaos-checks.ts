import Decimal from 'decimal.js';
import type { Answered, AnsweredOrder, AnsweredWithdrawal } from './chaos-load';
import type { TestUser } from './exchange-actors';
import { signedRequest } from './signed-client';

type Order = { orderId: string; clientOrderId: string; status: string; executedQty: string };

/** Where an order may be after a state a client was told: the same, or one its life can reach from there. */
const orderLater: Record<string, string[]> = {
  NEW: ['NEW', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'FILLED', 'CANCELED'],
  PARTIALLY_FILLED: ['PARTIALLY_FILLED', 'PENDING_CANCEL', 'FILLED', 'CANCELED'],
  PENDING_CANCEL: ['PENDING_CANCEL', 'FILLED', 'CANCELED'],
  FILLED: ['FILLED'],
  CANCELED: ['CANCELED'],
  REJECTED: ['REJECTED'],
};

/** API-DECISIONS' withdrawal transitions (1→2, 1→3, 3→4, 3→5, 5→7, 5→8, 8→6, 8→7), closed over. */
const withdrawalNext: Record<number, number[]> = { 1: [2, 3], 3: [4, 5], 5: [7, 8], 8: [6, 7] };
function withdrawalLater(status: number): Set<number> {
  const reached = new Set([status]);
  for (const s of reached) for (const next of withdrawalNext[s] ?? []) reached.add(next);
  return reached;
}

function orderProblem(told: AnsweredOrder, found: Order | undefined, how: string): string | undefined {
  const what = `order ${told.orderId} (${told.clientOrderId}, answered ${told.status} with ${told.executedQty} executed)`;
  if (!found) return `${what}: not found ${how}`;
  if (found.orderId !== told.orderId || found.clientOrderId !== told.clientOrderId)
    return `${what}: ${how} found ${found.orderId} (${found.clientOrderId})`;
  if (!(orderLater[told.status] ?? []).includes(found.status))
    return `${what}: ${how} it is ${found.status}, not the same or a later state`;
  if (new Decimal(found.executedQty).lt(told.executedQty)) return `${what}: ${how} only ${found.executedQty} executed`;
  return undefined;
}

/**
 * Every request that got a 200, looked up through the edge: each order in its account's open and
 * history lists with the same or a later state (and, for `lookups`, by its id or its client id),
 * each answered cancel as CANCELED, each transfer in the destination's balance flow, each
 * withdrawal by its id or client id at the same or a later status (6 when its confirmation was
 * answered), each credited deposit in depositOrders. Returns what does not hold (empty when all do).
 */
export async function answeredRequestProblems(
  edgeUrl: string,
  users: TestUser[],
  answered: Answered,
  lookups: AnsweredOrder[],
): Promise<string[]> {
  const problems: string[] = [];
  const get = async <T>(user: TestUser, path: string, query: Record<string, string | number>): Promise<T> => {
    const answer = await signedRequest<T>(edgeUrl, 'GET', path, user.key, { query, recvWindow: 60_000 });
    if (answer.status !== 200)
      throw new Error(`GET ${path} ${JSON.stringify(query)}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  for (const user of users) {
    const mine = <T extends { user: TestUser }>(items: T[]): T[] => items.filter((i) => i.user === user);
    // Open first, then history: an order that ends in between is still seen in one of them.
    const open = await get<Order[]>(user, '/openapi/v1/openOrders', { symbol: 'ETHUSDT', limit: 1000 });
    const history = await get<Order[]>(user, '/openapi/v1/historyOrders', { symbol: 'ETHUSDT', limit: 1000 });
    const listed = new Map([...open, ...history].map((o) => [o.orderId, o]));
    for (const told of mine(answered.orders)) {
      const problem = orderProblem(told, listed.get(told.orderId), 'in openOrders/historyOrders');
      if (problem) problems.push(problem);
    }
    for (const canceled of mine(answered.cancels)) {
      const status = listed.get(canceled.orderId)?.status;
      if (status !== 'CANCELED')
        problems.push(`order ${canceled.orderId}: its cancel was answered CANCELED, it is ${status ?? 'not found'}`);
    }
    if (mine(answered.transfers).length > 0) {
      const flows = await get<{ change: string; flowTypeValue: number }[]>(user, '/openapi/v1/balance_flow', {
        accountType: 3,
        tokenId: 'USDT',
        limit: 500,
      });
      const arrived = new Set(flows.filter((f) => f.flowTypeValue === 51).map((f) => new Decimal(f.change).toFixed()));
      for (const t of mine(answered.transfers))
        if (!arrived.has(new Decimal(t.amount).toFixed()))
          problems.push(
            `transfer of ${t.amount} USDT (user ${user.userId}): not in the contracts account's balance flow`,
          );
    }
    if (mine(answered.deposits).length > 0) {
      const deposits = new Set(
        (await get<{ orderId: string }[]>(user, '/openapi/v1/depositOrders', { limit: 1000 })).map((d) => d.orderId),
      );
      for (const d of mine(answered.deposits))
        if (!deposits.has(d.orderId))
          problems.push(`deposit ${d.orderId} (user ${user.userId}): credited, not in depositOrders`);
    }
  }
  for (const [i, told] of lookups.entries()) {
    const query: Record<string, string> =
      i % 2 === 0 ? { orderId: told.orderId } : { origClientOrderId: told.clientOrderId };
    const answer = await signedRequest<Order>(edgeUrl, 'GET', '/openapi/v1/order', told.user.key, {
      query: { symbol: 'ETHUSDT', ...query },
      recvWindow: 60_000,
    });
    const problem = orderProblem(
      told,
      answer.status === 200 ? answer.body : undefined,
      `by ${Object.keys(query)[0]} (${answer.status})`,
    );
    if (problem) problems.push(problem);
  }
  const confirmed = new Set(answered.confirmations.map((w) => w.orderId));
  for (const [i, told] of answered.withdrawals.entries()) {
    const problem = await withdrawalProblem(
      edgeUrl,
      told,
      i % 2 === 0 ? { orderId: told.orderId } : { clientOrderId: told.clientOrderId },
      confirmed.has(told.orderId),
    );
    if (problem) problems.push(problem);
  }
  return problems;
}

async function withdrawalProblem(
  edgeUrl: string,
  told: AnsweredWithdrawal,
  query: Record<string, string>,
  confirmed: boolean,
): Promise<string | undefined> {
  const answer = await signedRequest<{ orderId: string; status: number }>(
    edgeUrl,
    'GET',
    '/openapi/v1/withdraw/detail',
    told.user.key,
    { query, recvWindow: 60_000 },
  );
  const what = `withdrawal ${told.orderId} (${told.clientOrderId}, answered status ${told.status}${confirmed ? ', confirmation answered 6' : ''})`;
  if (answer.status !== 200 || answer.body.orderId !== told.orderId)
    return `${what}: by ${Object.keys(query)[0]} ${answer.status} ${JSON.stringify(answer.body)}`;
  if (confirmed ? answer.body.status !== 6 : !withdrawalLater(told.status).has(answer.body.status))
    return `${what}: it is at status ${answer.body.status}`;
  return undefined;
}
