import Decimal from 'decimal.js';
import { ApiError, ErrorCode } from '@exchange/platform';
import { checkPrice } from '../orders/order-params';
import type { NewContractOrder } from './contract-params';

/** What the price types are resolved against: the book's best prices and the last trade price. */
export interface ContractQuotes {
  bestBid?: string;
  bestAsk?: string;
  lastPrice?: string;
}

/** How far a MARKET order may trade from the last price (CONTRACTS.md: an IOC at last × (1 ± 5%)). */
const MARKET_BAND = new Decimal('0.05');

/**
 * The limit price an order is placed (and its margin locked) at: INPUT as sent; OPPONENT the best
 * opposite price; QUEUE the best price on its own side; OVER the best opposite price moved by
 * overPrice against the order (a buy pays more); MARKET the last price moved 5% against the order,
 * to the tick, as an IOC. With nothing to resolve against, the order is rejected (-2010).
 */
export function resolveContractPrice(order: NewContractOrder, quotes: ContractQuotes): string {
  const buy = order.side.startsWith('BUY');
  const { tickSize } = order.contract;
  const need = (value: string | undefined, what: string): Decimal => {
    if (value === undefined)
      throw new ApiError(
        ErrorCode.NEW_ORDER_REJECTED,
        `New order rejected: priceType ${order.priceType} needs ${what} of ${order.contract.symbol}, and there is none.`,
      );
    return new Decimal(value);
  };
  const opposite = () => need(buy ? quotes.bestAsk : quotes.bestBid, buy ? 'a best ask' : 'a best bid');
  let price: Decimal;
  switch (order.priceType) {
    case 'INPUT':
      return order.price!.toFixed();
    case 'OPPONENT':
      price = opposite();
      break;
    case 'QUEUE':
      price = need(buy ? quotes.bestBid : quotes.bestAsk, buy ? 'a best bid' : 'a best ask');
      break;
    case 'OVER':
      price = buy ? opposite().plus(order.overPrice!) : opposite().minus(order.overPrice!);
      break;
    case 'MARKET': {
      const last = need(quotes.lastPrice, 'a last price');
      const band = last.times(buy ? MARKET_BAND.plus(1) : new Decimal(1).minus(MARKET_BAND));
      const ticks = band.div(tickSize)[buy ? 'floor' : 'ceil']();
      price = Decimal.max(Decimal.min(ticks.times(tickSize), order.contract.maxPrice), order.contract.minPrice);
      break;
    }
    default: {
      const unexpected: never = order.priceType;
      throw new Error(`contract prices: unknown priceType ${String(unexpected)}`);
    }
  }
  return checkPrice(price, order.contract).toFixed();
}
