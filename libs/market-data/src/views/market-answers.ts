import type { ContractConfig, Markets } from '@exchange/contracts';
import { ContractPriceBoard, type KlineInterval, type KlineQuery, type MarketFold, type SymbolMarket } from '../domain';
import { contractSummary, fundingRatesJson, indexJson } from './contract-json';
import { bookTicker, depthJson, klineRow, lastPrice, mergedDepthJson, ticker24h, tradesJson } from './quote-json';
import { TextCache } from './text-cache';
import { v2OrderBook, v2PairName, v2Ticker, v2Trades } from './v2-json';
import type { Kline } from '../domain';

/** Candles older than memory holds: the history store's answer by the same rules. */
export type OlderKlines = (
  symbol: string,
  interval: KlineInterval,
  query: KlineQuery,
  before: number,
) => Promise<Kline[]>;

/**
 * Every public market answer as UTF-8 JSON, cached per symbol (and per limit) until its model
 * changes; all-symbol answers until any event is folded.
 */
export class MarketAnswers {
  private readonly cache: TextCache;

  constructor(
    private readonly fold: MarketFold,
    private readonly markets: Markets,
    private readonly olderKlines?: OlderKlines,
    private readonly board = new ContractPriceBoard(),
    cacheChars = 32 * 1024 * 1024,
  ) {
    this.cache = new TextCache(cacheChars);
  }

  depth(m: SymbolMarket, limit: number): Buffer {
    return this.cache.get(`depth|${m.symbol}|${limit}`, m.bookVersion, () => depthJson(m, limit));
  }

  mergedDepth(m: SymbolMarket, limit: number): Buffer {
    return this.cache.get(`merged|${m.symbol}|${limit}`, m.mergedVersion, () => mergedDepthJson(m, limit));
  }

  trades(m: SymbolMarket, limit: number): Buffer {
    return this.cache.get(`trades|${m.symbol}|${limit}`, m.tradeVersion, () => tradesJson(m, limit));
  }

  ticker24h(m: SymbolMarket | undefined): Buffer {
    if (m) return this.cache.get(`24h|${m.symbol}`, tickerVersion(m), () => JSON.stringify(ticker24h(m)));
    return this.cache.get('24h|*', this.fold.version, () => JSON.stringify(this.all().map(ticker24h)));
  }

  price(m: SymbolMarket | undefined): Buffer {
    if (m) return this.cache.get(`price|${m.symbol}`, m.tradeVersion, () => JSON.stringify({ price: lastPrice(m) }));
    return this.cache.get('price|*', this.fold.version, () =>
      JSON.stringify(this.all().map((s) => ({ symbol: s.symbol, price: lastPrice(s) }))),
    );
  }

  bookTicker(m: SymbolMarket | undefined): Buffer {
    if (m) return this.cache.get(`book|${m.symbol}`, m.bookVersion, () => JSON.stringify(bookTicker(m)));
    return this.cache.get('book|*', this.fold.version, () => JSON.stringify(this.all().map(bookTicker)));
  }

  async klines(m: SymbolMarket, interval: KlineInterval, query: KlineQuery): Promise<Buffer> {
    const series = m.series(interval);
    const latest = query.startTime === undefined && query.endTime === undefined;
    if (latest)
      return this.cache.get(`klines|${m.symbol}|${interval}|${query.limit}`, m.tradeVersion, () =>
        klineJson(m, interval, series.query(query) ?? []),
      );
    const fromMemory = series.query(query);
    if (fromMemory !== undefined || this.olderKlines === undefined)
      return Buffer.from(klineJson(m, interval, fromMemory ?? []));
    const before = series.oldestOpenTime ?? Number.POSITIVE_INFINITY;
    const older = await this.olderKlines(m.symbol, interval, query, before);
    const newer =
      series.query({ ...query, startTime: Math.max(query.startTime ?? before, before), limit: query.limit }) ?? [];
    const all = [...older, ...newer];
    const page = query.startTime !== undefined ? all.slice(0, query.limit) : all.slice(-query.limit);
    return Buffer.from(klineJson(m, interval, page));
  }

  v2Ticker(m: SymbolMarket | undefined): Buffer {
    if (m)
      return this.cache.get(`v2ticker|${m.symbol}`, tickerVersion(m), () => JSON.stringify(v2Ticker(this.markets, m)));
    return this.cache.get('v2ticker|*', this.fold.version, () =>
      JSON.stringify(this.all().map((s) => v2Ticker(this.markets, s))),
    );
  }

  v2OrderBook(m: SymbolMarket | undefined): Buffer {
    if (m)
      return this.cache.get(`v2book|${m.symbol}`, m.bookVersion, () => JSON.stringify(v2OrderBook(this.markets, m)));
    return this.cache.get('v2book|*', this.fold.version, () =>
      JSON.stringify(this.all().map((s) => v2OrderBook(this.markets, s))),
    );
  }

  v2Trades(m: SymbolMarket | undefined): Buffer {
    if (m) return this.cache.get(`v2trades|${m.symbol}`, m.tradeVersion, () => JSON.stringify(v2Trades(m)));
    return this.cache.get('v2trades|*', this.fold.version, () =>
      JSON.stringify(Object.fromEntries(this.all().map((s) => [v2PairName(this.markets, s.symbol), v2Trades(s)]))),
    );
  }

  /** Every contract's summary: the fold's figures and the board's prices. */
  contractSummaries(): Buffer {
    return this.cache.get('contracts|*', `${this.fold.version}:${this.board.version}`, () =>
      JSON.stringify(
        this.markets.contracts.map((c) => contractSummary(this.fold.symbols.get(c.symbol)!, c, this.board)),
      ),
    );
  }

  contractIndex(only?: readonly ContractConfig[]): Buffer {
    const key = `index|${only?.map((c) => c.symbol).join(',') ?? '*'}`;
    return this.cache.get(key, this.board.version, () => JSON.stringify(indexJson(this.markets, this.board, only)));
  }

  fundingRates(state: 'current' | 'past', only?: readonly ContractConfig[]): Buffer {
    const key = `funding|${state}|${only?.map((c) => c.symbol).join(',') ?? '*'}`;
    return this.cache.get(key, this.board.version, () =>
      JSON.stringify(fundingRatesJson(this.markets, this.board, state, only)),
    );
  }

  /** Every spot symbol: the all-symbol answers of the spot and v2 families. */
  private all(): SymbolMarket[] {
    return [...this.fold.symbols.values()].filter((m) => m.kind === 'spot');
  }
}

function klineJson(m: SymbolMarket, interval: KlineInterval, klines: readonly Kline[]): string {
  return JSON.stringify(klines.map((k) => klineRow(m, interval, k)));
}

/** A 24 h ticker moves with trades, the window's roll, the best prices and the partition's time. */
function tickerVersion(m: SymbolMarket): string {
  return `${m.tickerVersion}:${m.bookVersion}:${m.clock.eventTime}`;
}
