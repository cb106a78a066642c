import type {
  ContractPriceRecord,
  Kline,
  KlineInterval,
  MarketChange,
  PriceLevel,
  PublicTrade,
  SymbolMarket,
} from '../domain';
import { ticker24h } from '../views/quote-json';

/** The public stream topics of the family (API-DECISIONS "Public WebSocket streams"). */
export const streamTopics = [
  'realtimes',
  'trade',
  'depth',
  'diffDepth',
  'markPrice',
  'index',
  'kline_1m',
  'kline_5m',
  'kline_15m',
  'kline_30m',
  'kline_1h',
  'kline_2h',
  'kline_4h',
  'kline_6h',
  'kline_8h',
  'kline_12h',
  'kline_1d',
  'kline_1w',
  'kline_1M',
] as const;
export type StreamTopic = (typeof streamTopics)[number];
/** The topics of contract prices (CONTRACTS.md "Public data"): contract symbols only, fed by the prices board. */
export const priceTopics: readonly StreamTopic[] = ['markPrice', 'index'];

/** A contract's prices as a topic's item: the mark (with its index) or the index alone, keyed by the index's name. */
export function priceItem(
  topic: 'markPrice' | 'index',
  record: ContractPriceRecord,
  indexName: string,
): Record<string, unknown> | undefined {
  if (topic === 'markPrice')
    return record.markPrice === undefined
      ? undefined
      : { s: record.symbol, t: record.at, p: record.markPrice, i: record.indexPrice };
  return record.indexPrice === undefined
    ? undefined
    : { s: indexName, sn: record.symbol, t: record.at, p: record.indexPrice };
}

export function isStreamTopic(text: string): text is StreamTopic {
  return (streamTopics as readonly string[]).includes(text);
}

/** Trades sent with a trade subscription's first frame. */
export const INITIAL_TRADES = 60;

/**
 * One frame: `f` is true for the first frame of a subscription (the current state), false for
 * changes. Built once per change and sent as the same string to every subscriber.
 */
export function frame(
  market: SymbolMarket,
  topic: StreamTopic,
  data: unknown[],
  first: boolean,
  sendTime: number,
): string {
  return JSON.stringify({ symbol: market.symbol, symbolName: market.symbol, topic, data, f: first, sendTime });
}

export function tradeItem(market: SymbolMarket, t: PublicTrade): Record<string, unknown> {
  return {
    v: String(t.tradeId),
    t: t.time,
    p: market.scale.formatPrice(t.price),
    q: market.scale.formatQty(t.qty),
    m: t.isBuyerMaker,
  };
}

export function tickerItem(market: SymbolMarket): Record<string, unknown> {
  const t = ticker24h(market);
  const stats = market.ticker.stats();
  return {
    t: t.time,
    s: t.symbol,
    sn: t.symbol,
    c: t.lastPrice,
    h: t.highPrice,
    l: t.lowPrice,
    o: t.openPrice,
    v: t.volume,
    qv: market.scale.formatQuote(stats.quoteVolume),
  };
}

export function klineItem(market: SymbolMarket, interval: KlineInterval, k: Kline): Record<string, unknown> {
  const { scale } = market;
  return {
    t: k.openTime,
    s: market.symbol,
    sn: market.symbol,
    i: interval,
    o: scale.formatPrice(k.open),
    h: scale.formatPrice(k.high),
    l: scale.formatPrice(k.low),
    c: scale.formatPrice(k.close),
    v: scale.formatQty(k.volume),
    n: k.trades,
  };
}

/** The merged (300 ms cut) book: what the `depth` topic sends. */
export function depthItem(market: SymbolMarket): Record<string, unknown> {
  const { merged } = market;
  return { s: market.symbol, t: merged.time, v: String(merged.lastUpdateId), b: merged.bids, a: merged.asks };
}

export function diffDepthItem(
  symbol: string,
  time: number,
  first: number,
  last: number,
  bids: PriceLevel[],
  asks: PriceLevel[],
): Record<string, unknown> {
  return { s: symbol, t: time, U: first, u: last, b: bids, a: asks };
}

/** The first frame's data of a subscription: the topic's current state. */
export function initialData(market: SymbolMarket, topic: StreamTopic): unknown[] {
  switch (topic) {
    case 'realtimes':
      return [tickerItem(market)];
    case 'trade':
      return market.trades.last(INITIAL_TRADES).map((t) => tradeItem(market, t));
    case 'depth':
      return [depthItem(market)];
    case 'diffDepth':
      // Diffs chain onto the REST depth's lastUpdateId; the stream itself starts with no snapshot.
      return [];
    case 'markPrice':
    case 'index':
      // The prices board's, which the hub holds.
      return [];
    default: {
      const interval = topic.slice('kline_'.length) as KlineInterval;
      const latest = market.series(interval).latest;
      return latest ? [klineItem(market, interval, latest)] : [];
    }
  }
}

/**
 * A folded batch's changes as frame payloads per symbol and topic: trades of the batch in one
 * frame, each touched candle once as it ends the batch, the ticker and the cut depth once, and
 * the book diffs merged into one diff whose first and last update ids span the batch.
 */
export function batchFrames(
  changes: readonly MarketChange[],
  marketOf: (symbol: string) => SymbolMarket,
): Map<string, { market: SymbolMarket; topic: StreamTopic; data: unknown[] }> {
  const out = new Map<string, { market: SymbolMarket; topic: StreamTopic; data: unknown[] }>();
  const entry = (symbol: string, topic: StreamTopic) => {
    const key = `${symbol}|${topic}`;
    let e = out.get(key);
    if (!e) out.set(key, (e = { market: marketOf(symbol), topic, data: [] }));
    return e;
  };
  const diffs = new Map<
    string,
    { time: number; first: number; last: number; bids: Map<string, PriceLevel>; asks: Map<string, PriceLevel> }
  >();
  const klines = new Map<string, { symbol: string; interval: KlineInterval; kline: Kline }>();
  for (const c of changes) {
    switch (c.kind) {
      case 'trade':
        entry(c.symbol, 'trade').data.push(tradeItem(marketOf(c.symbol), c.trade));
        break;
      case 'kline':
        klines.set(`${c.symbol}|${c.interval}`, c);
        break;
      case 'ticker':
        entry(c.symbol, 'realtimes');
        break;
      case 'mergedDepth':
        entry(c.symbol, 'depth');
        break;
      case 'diffDepth': {
        let d = diffs.get(c.symbol);
        if (!d)
          diffs.set(
            c.symbol,
            (d = { time: c.time, first: c.firstUpdateId, last: c.lastUpdateId, bids: new Map(), asks: new Map() }),
          );
        d.time = c.time;
        d.last = c.lastUpdateId;
        for (const level of c.bids) d.bids.set(level[0], level);
        for (const level of c.asks) d.asks.set(level[0], level);
        break;
      }
      default:
        unknownChange(c);
    }
  }
  // The ticker and the cut depth are sent as they stand after the batch, once.
  for (const e of out.values()) {
    if (e.topic === 'realtimes') e.data.push(tickerItem(e.market));
    else if (e.topic === 'depth') e.data.push(depthItem(e.market));
  }
  for (const { symbol, interval, kline } of klines.values())
    entry(symbol, `kline_${interval}`).data.push(klineItem(marketOf(symbol), interval, kline));
  for (const [symbol, d] of diffs)
    entry(symbol, 'diffDepth').data.push(
      diffDepthItem(symbol, d.time, d.first, d.last, [...d.bids.values()], [...d.asks.values()]),
    );
  return out;
}

function unknownChange(change: never): never {
  throw new Error(`stream frames: unknown change ${JSON.stringify(change)}`);
}
