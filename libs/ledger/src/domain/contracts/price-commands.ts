import type { ContractPriceMessage, MarkContractPrice, SettleFunding, TriggerContractStops } from '@exchange/contracts';
import { Money } from '../ledger-money';

/**
 * What one record of market.contract-prices asks of one ledger partition: a new mark price
 * (liquidations, the fund's closing orders) or a funding fix. Its id is the price decision's id
 * and the partition, so every copy of one decision (market-data replicas publish the same one,
 * a relay repeats after a crash) is one command to each partition, decided once there.
 */
export function partitionCommandOf(
  message: ContractPriceMessage,
  partition: number,
  marketsVersion: number,
): MarkContractPrice | SettleFunding {
  const id = `${message.id}/${partition}`;
  if (message.type === 'ContractPricesChanged') {
    const { symbol, markPrice, indexPrice } = message.payload;
    return {
      type: 'MarkContractPrice',
      v: 1,
      id,
      ts: message.ts,
      payload: { symbol, markPrice, indexPrice, marketsVersion },
    };
  }
  const { symbol, fundingTime, rate, markPrice } = message.payload;
  return { type: 'SettleFunding', v: 1, id, ts: message.ts, payload: { symbol, fundingTime, rate, markPrice } };
}

/** The prices a batch of a contract's trades went through: its lowest and highest (one when they are equal). */
export function extremesOf(prices: readonly string[]): string[] {
  if (prices.length === 0) return [];
  let [low, high] = [new Money(prices[0]!), new Money(prices[0]!)];
  for (const text of prices) {
    const price = new Money(text);
    if (price.lt(low)) low = price;
    if (price.gt(high)) high = price;
  }
  return low.eq(high) ? [low.toFixed()] : [low.toFixed(), high.toFixed()];
}

/**
 * What a contract's trades in one order.events batch ask of one partition: a TriggerContractStops
 * at the lowest and at the highest price they went through (every price a trade made was a last
 * price; stops between are crossed by one of the two). Ids name the batch's first record.
 */
export function stopCommandsOf(
  symbol: string,
  prices: readonly string[],
  source: { partition: number; offset: number; ts: number },
  partition: number,
): TriggerContractStops[] {
  return extremesOf(prices).map((lastPrice, k) => ({
    type: 'TriggerContractStops',
    v: 1,
    id: `stops:${symbol}:${source.partition}:${source.offset}:${k}/${partition}`,
    ts: source.ts,
    payload: { symbol, lastPrice },
  }));
}
