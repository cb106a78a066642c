import { useEffect, useState } from 'preact/hooks';
import { JsonSocket, wsUrl } from '../shared/json-socket';
import type { KlineItem, Level, TickerItem, TradeItem } from '../shared/market-types';
import { publicGet } from '../shared/signed-api';

export interface MarketState {
  ticker?: TickerItem;
  bids: Level[];
  asks: Level[];
  trades: TradeItem[];
  /** The candle the stream last reported (the chart merges it into its series). */
  kline?: KlineItem;
  connected: boolean;
}

export const KLINE_INTERVAL = '1m';
const MAX_TRADES = 60;
const TOPICS = ['realtimes', 'trade', 'depth', `kline_${KLINE_INTERVAL}`];

interface Frame {
  symbol: string;
  topic: string;
  data: unknown[];
  f: boolean;
}

/**
 * One public socket per page (/openapi/quote/ws/v1), subscribed to the ticker, trades, the 300 ms
 * depth cut and 1 m candles of the chosen symbol. The first frame of each topic is its current
 * state, so a reconnect needs no REST call to resynchronise.
 */
export function useMarket(symbol: string): MarketState {
  const [state, setState] = useState<MarketState>({ bids: [], asks: [], trades: [], connected: false });

  useEffect(() => {
    setState({ bids: [], asks: [], trades: [], connected: false });
    const socket = new JsonSocket(() => wsUrl('/openapi/quote/ws/v1'), {
      onOpen: (send) => {
        for (const topic of TOPICS) send({ symbol, topic, event: 'sub' });
      },
      onState: (connected) => setState((s) => ({ ...s, connected })),
      onMessage: (message) => {
        const frame = message as Frame;
        if (frame.symbol !== symbol || !Array.isArray(frame.data)) return;
        setState((s) => applyFrame(s, frame));
      },
    });
    // The 24 h ticker of a symbol with no trade yet arrives only with its first trade: ask REST once.
    publicGet<{
      lastPrice: string;
      highPrice: string;
      lowPrice: string;
      openPrice: string;
      volume: string;
      quoteVolume: string;
    }>('/openapi/quote/v1/ticker/24hr', { symbol })
      .then((t) =>
        setState((s) =>
          s.ticker
            ? s
            : {
                ...s,
                ticker: {
                  c: t.lastPrice,
                  h: t.highPrice,
                  l: t.lowPrice,
                  o: t.openPrice,
                  v: t.volume,
                  qv: t.quoteVolume,
                },
              },
        ),
      )
      .catch(() => undefined);
    return () => socket.close();
  }, [symbol]);

  return state;
}

function applyFrame(s: MarketState, frame: Frame): MarketState {
  switch (frame.topic) {
    case 'realtimes': {
      const ticker = frame.data[frame.data.length - 1] as TickerItem | undefined;
      return ticker ? { ...s, ticker } : s;
    }
    case 'trade': {
      const fresh = (frame.data as TradeItem[]).slice().reverse();
      return { ...s, trades: (frame.f ? fresh : [...fresh, ...s.trades]).slice(0, MAX_TRADES) };
    }
    case 'depth': {
      const book = frame.data[frame.data.length - 1] as { b: Level[]; a: Level[] } | undefined;
      return book ? { ...s, bids: book.b, asks: book.a } : s;
    }
    default: {
      const kline = frame.data[frame.data.length - 1] as KlineItem | undefined;
      return kline ? { ...s, kline } : s;
    }
  }
}
