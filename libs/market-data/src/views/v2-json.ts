import Decimal from 'decimal.js';
import type { Markets } from '@exchange/contracts';
import { formatScaled, type SymbolMarket } from '../domain';

export const V2_BOOK_LEVELS = 10;
export const V2_TRADES = 30;

/** "BTCUSDT" as the v2 family writes it: lowercase base-quote ("btc-usdt"). */
export function v2PairName(markets: Markets, symbol: string): string {
  const config = markets.symbol(symbol);
  return config ? `${config.baseAsset}-${config.quoteAsset}`.toLowerCase() : symbol.toLowerCase();
}

/**
 * A v2 ticker in the aggregators' (CoinMarketCap-style) terms: last, best bid and ask, 24 h
 * volumes in base and quote, the 24 h change in percent (2 decimals, rounded half up) and range.
 */
export function v2Ticker(markets: Markets, market: SymbolMarket): Record<string, string | number> {
  const config = markets.symbol(market.symbol)!;
  const { scale } = market;
  const stats = market.ticker.stats();
  const price = (value: bigint | undefined): string => scale.formatPrice(value ?? 0n);
  const change =
    stats.openPrice === undefined || stats.openPrice === 0n || stats.lastPrice === undefined
      ? '0.00'
      : new Decimal((stats.lastPrice - stats.openPrice).toString())
          .mul(100)
          .div(stats.openPrice.toString())
          .toFixed(2, Decimal.ROUND_HALF_UP);
  return {
    trading_pairs: v2PairName(markets, market.symbol),
    base_currency: config.baseAsset,
    quote_currency: config.quoteAsset,
    last_price: price(stats.lastPrice),
    lowest_ask: market.book.asks.best()?.[0] ?? price(undefined),
    highest_bid: market.book.bids.best()?.[0] ?? price(undefined),
    base_volume: scale.formatQty(stats.volume),
    quote_volume: formatScaled(stats.quoteVolume, scale.quoteDecimals),
    price_change_percent_24h: change,
    highest_price_24h: price(stats.highPrice),
    lowest_price_24h: price(stats.lowPrice),
    timestamp: market.clock.eventTime,
  };
}

export function v2OrderBook(markets: Markets, market: SymbolMarket): Record<string, unknown> {
  const { book } = market;
  return {
    trading_pairs: v2PairName(markets, market.symbol),
    timestamp: book.time,
    lastUpdateId: book.lastUpdateId,
    bids: book.bids.top(V2_BOOK_LEVELS),
    asks: book.asks.top(V2_BOOK_LEVELS),
  };
}

/** The last 30 trades, newest first; `type` is the taker's side. */
export function v2Trades(market: SymbolMarket): Record<string, string | number>[] {
  const { scale } = market;
  return market.trades
    .last(V2_TRADES)
    .reverse()
    .map((t) => ({
      trade_id: String(t.tradeId),
      price: scale.formatPrice(t.price),
      base_volume: scale.formatQty(t.qty),
      quote_volume: scale.formatQuote(t.price * t.qty),
      timestamp: t.time,
      type: t.isBuyerMaker ? 'sell' : 'buy',
    }));
}
