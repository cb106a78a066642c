import { Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import Decimal from 'decimal.js';
import type { TestUser } from './exchange-actors';
import { signedRequest } from './signed-client';

/** One leg of a contract trade as myTrades lists it. */
export interface ContractTradeView {
  tradeId: string;
  orderId: string;
  matchOrderId: string;
  symbolId: string;
  side: string;
  price: string;
  quantity: string;
}

/** Every contract trade of the user, through myTrades' pages (newest first, `fromId` below the last one seen). */
export async function allContractTrades(baseUrl: string, user: TestUser): Promise<ContractTradeView[]> {
  const all: ContractTradeView[] = [];
  for (;;) {
    const last = all[all.length - 1];
    const page = await signedRequest<ContractTradeView[]>(baseUrl, 'GET', '/openapi/contract/v1/myTrades', user.key, {
      query: { limit: 1000, ...(last ? { fromId: last.tradeId } : {}) },
    });
    if (page.status !== 200) throw new Error(`myTrades: ${page.status} ${JSON.stringify(page.body)}`);
    all.push(...page.body);
    if (page.body.length < 1000) return all;
  }
}

/** Position sizes per `symbol|side` from a user's fills: OPEN fills add to their side, CLOSE fills take from the other. */
export function positionSizesFromTrades(trades: readonly ContractTradeView[]): Record<string, string> {
  const sizes = new Map<string, Decimal>();
  for (const t of trades) {
    const side = t.side === 'BUY_OPEN' || t.side === 'SELL_CLOSE' ? 'LONG' : 'SHORT';
    const signed = t.side.endsWith('OPEN') ? new Decimal(t.quantity) : new Decimal(t.quantity).neg();
    const key = `${t.symbolId}|${side}`;
    sizes.set(key, (sizes.get(key) ?? new Decimal(0)).plus(signed));
  }
  return Object.fromEntries(
    [...sizes].filter(([, size]) => !size.isZero()).map(([key, size]) => [key, size.toFixed()]),
  );
}

/** Position sizes per `symbol|side` as the positions endpoint answers them. */
export async function positionSizes(baseUrl: string, user: TestUser): Promise<Record<string, string>> {
  const answer = await signedRequest<{ symbol: string; side: string; position: string }[]>(
    baseUrl,
    'GET',
    '/openapi/contract/v1/positions',
    user.key,
  );
  if (answer.status !== 200) throw new Error(`positions: ${answer.status} ${JSON.stringify(answer.body)}`);
  return Object.fromEntries(answer.body.map((p) => [`${p.symbol}|${p.side}`, p.position]));
}

/** The engine's trades of `symbols` (order.events' TradeExecuted), by trade id, with their taker and maker orders. */
export async function engineTrades(
  log: EventLog,
  symbols: readonly string[],
): Promise<Map<string, { takerOrderId: string; makerOrderId: string; price: string; qty: string }>> {
  const trades = new Map<string, { takerOrderId: string; makerOrderId: string; price: string; qty: string }>();
  const partitions = await log.partitionCount(Topics.orderEvents.name);
  for (let p = 0; p < partitions; p++) {
    await log.read(Topics.orderEvents.name, p, 0, async (records) => {
      for (const r of records) {
        const event = JSON.parse(r.value) as {
          type: string;
          payload: {
            symbol: string;
            tradeId: string;
            takerOrderId: string;
            makerOrderId: string;
            price: string;
            qty: string;
          };
        };
        if (event.type === 'TradeExecuted' && symbols.includes(event.payload.symbol))
          trades.set(event.payload.tradeId, event.payload);
      }
    });
  }
  return trades;
}

/** LONG sizes minus SHORT sizes per symbol over every account: zero when positions pair up. */
export function openInterestGaps(sizes: readonly Record<string, string>[]): Record<string, string> {
  const gaps = new Map<string, Decimal>();
  for (const bySide of sizes) {
    for (const [key, size] of Object.entries(bySide)) {
      const [symbol, side] = key.split('|') as [string, string];
      gaps.set(symbol, (gaps.get(symbol) ?? new Decimal(0)).plus(side === 'LONG' ? size : new Decimal(size).neg()));
    }
  }
  return Object.fromEntries([...gaps].map(([symbol, gap]) => [symbol, gap.toFixed()]));
}
