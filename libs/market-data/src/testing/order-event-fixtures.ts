import type { BookChanged, ClockTicked, SymbolConfig, TradeExecuted } from '@exchange/contracts';
import type { MarketSymbolConfig } from '../domain/symbol-market';

/** BTCUSDT and ETHBTC as config/markets.json has them: 0.01 × 0.00001 and 0.00001 × 0.001. */
export const testSymbols: SymbolConfig[] = [
  {
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    status: 'TRADING',
    minPrice: '0.01',
    maxPrice: '10000000',
    tickSize: '0.01',
    minQty: '0.00001',
    maxQty: '1000',
    stepSize: '0.00001',
    minNotional: '5',
    makerFee: '0.001',
    takerFee: '0.001',
    selfTradePrevention: 'CANCEL_TAKER',
  },
  {
    symbol: 'ETHBTC',
    baseAsset: 'ETH',
    quoteAsset: 'BTC',
    status: 'TRADING',
    minPrice: '0.00001',
    maxPrice: '100',
    tickSize: '0.00001',
    minQty: '0.001',
    maxQty: '10000',
    stepSize: '0.001',
    minNotional: '0.0001',
    makerFee: '0.001',
    takerFee: '0.001',
    selfTradePrevention: 'CANCEL_TAKER',
  },
];

/** BTC-SWAP-USDT as config/markets.json has it: tick 0.1, one contract of 0.001 BTC. */
export const testContract: MarketSymbolConfig = {
  symbol: 'BTC-SWAP-USDT',
  status: 'TRADING',
  tickSize: '0.1',
  stepSize: '1',
  contractMultiplier: '0.001',
  kind: 'contract',
};

/** Both symbols in partition 0, so one event time drives them. */
export const onePartition = (): number => 0;

/** Builds order.events the way the engine writes them, with ids and update/trade ids counted per symbol. */
export class OrderEventFactory {
  private seq = 0;
  private readonly updateIds = new Map<string, number>();
  private readonly tradeIds = new Map<string, number>();

  book(symbol: string, ts: number, bids: [string, string][], asks: [string, string][]): BookChanged {
    const first = (this.updateIds.get(symbol) ?? 0) + 1;
    const last = first + bids.length + asks.length - 1;
    this.updateIds.set(symbol, last);
    return {
      type: 'BookChanged',
      v: 2,
      id: this.id(),
      ts,
      payload: { symbol, updateIdFirst: first, updateIdLast: last, bids, asks },
    };
  }

  trade(symbol: string, ts: number, price: string, qty: string, takerSide: 'BUY' | 'SELL' = 'BUY'): TradeExecuted {
    const tradeId = (this.tradeIds.get(symbol) ?? 0) + 1;
    this.tradeIds.set(symbol, tradeId);
    return {
      type: 'TradeExecuted',
      v: 2,
      id: this.id(),
      ts,
      payload: {
        symbol,
        tradeId: String(tradeId),
        price,
        qty,
        takerOrderId: '2',
        makerOrderId: '1',
        isBuyerMaker: takerSide === 'SELL',
        makerRemainingQty: '0',
        takerRemainingQty: '0',
      },
    };
  }

  tick(symbol: string, ts: number): ClockTicked {
    return { type: 'ClockTicked', v: 1, id: this.id(), ts, payload: { symbol } };
  }

  private id(): string {
    this.seq += 1;
    return `e${this.seq}`;
  }
}
