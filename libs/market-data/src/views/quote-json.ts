import {
  type Kline,
  type KlineInterval,
  klineCloseTime,
  type PriceLevel,
  type PublicTrade,
  type SymbolMarket,
} from '../domain';

/**
 * The openapi family's quote answers as JSON text, written from the read models. Field order is
 * fixed, so two replicas holding the same models write the same bytes.
 */
export function depthJson(market: SymbolMarket, limit: number): string {
  const { book } = market;
  return JSON.stringify({
    time: book.time,
    lastUpdateId: book.lastUpdateId,
    bids: book.bids.top(limit),
    asks: book.asks.top(limit),
  });
}

export function mergedDepthJson(market: SymbolMarket, limit: number): string {
  const { merged } = market;
  return JSON.stringify({
    time: merged.time,
    lastUpdateId: merged.lastUpdateId,
    bids: merged.bids.slice(0, limit),
    asks: merged.asks.slice(0, limit),
  });
}

export function publicTrade(
  market: SymbolMarket,
  trade: PublicTrade,
): { price: string; qty: string; time: number; isBuyerMaker: boolean } {
  return {
    price: market.scale.formatPrice(trade.price),
    qty: market.scale.formatQty(trade.qty),
    time: trade.time,
    isBuyerMaker: trade.isBuyerMaker,
  };
}

export function tradesJson(market: SymbolMarket, limit: number): string {
  return JSON.stringify(market.trades.last(limit).map((t) => publicTrade(market, t)));
}

export type KlineRow = [number, string, string, string, string, string, number, string, number, string, string];

export function klineRow(market: SymbolMarket, interval: KlineInterval, k: Kline): KlineRow {
  const { scale } = market;
  return [
    k.openTime,
    scale.formatPrice(k.open),
    scale.formatPrice(k.high),
    scale.formatPrice(k.low),
    scale.formatPrice(k.close),
    scale.formatQty(k.volume),
    klineCloseTime(interval, k.openTime),
    scale.formatQuote(k.quoteVolume),
    k.trades,
    scale.formatQty(k.takerBuyVolume),
    scale.formatQuote(k.takerBuyQuoteVolume),
  ];
}

export interface Ticker24h {
  time: number;
  symbol: string;
  bestBidPrice: string;
  bestAskPrice: string;
  lastPrice: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  volume: string;
}

/** Prices are zero before the first trade and on an empty side of the book. */
export function ticker24h(market: SymbolMarket): Ticker24h {
  const { scale } = market;
  const stats = market.ticker.stats();
  const price = (value: bigint | undefined): string => scale.formatPrice(value ?? 0n);
  return {
    time: market.clock.eventTime,
    symbol: market.symbol,
    bestBidPrice: market.book.bids.best()?.[0] ?? price(undefined),
    bestAskPrice: market.book.asks.best()?.[0] ?? price(undefined),
    lastPrice: price(stats.lastPrice),
    openPrice: price(stats.openPrice),
    highPrice: price(stats.highPrice),
    lowPrice: price(stats.lowPrice),
    volume: scale.formatQty(stats.volume),
  };
}

export function lastPrice(market: SymbolMarket): string {
  return market.scale.formatPrice(market.ticker.stats().lastPrice ?? 0n);
}

export interface BookTicker {
  symbol: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
}

export function bookTicker(market: SymbolMarket): BookTicker {
  const zero: PriceLevel = [market.scale.formatPrice(0n), market.scale.formatQty(0n)];
  const [bidPrice, bidQty] = market.book.bids.best() ?? zero;
  const [askPrice, askQty] = market.book.asks.best() ?? zero;
  return { symbol: market.symbol, bidPrice, bidQty, askPrice, askQty };
}
