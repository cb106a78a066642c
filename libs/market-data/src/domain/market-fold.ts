import { type Markets, MERGED_DEPTH_CUT_MS, type OrderEvent } from '@exchange/contracts';
import { klineIntervals } from './kline-intervals';
import type { MarketChange } from './market-change';
import type { PublicTrade } from './recent-trades';
import { SymbolScale } from './scaled-decimal';
import { type MarketSymbolConfig, type PartitionClock, SymbolMarket } from './symbol-market';
import { TICKER_WINDOW_MS } from './ticker-window';

/**
 * The fold of order.events into market data. Deterministic: the same events from the same
 * state give the same models, so two replicas at the same offsets serve the same bytes. Time
 * is event time (ts clamped non-decreasing per partition), never a clock: the 24 h window and
 * the merged-depth cuts move when events (ClockTicked included) say time has passed.
 */
export class MarketFold {
  readonly symbols: ReadonlyMap<string, SymbolMarket>;
  /** Events folded so far: all-symbol answers are current while it stands still. */
  version = 0;
  private readonly clocks = new Map<number, PartitionClock>();
  private readonly symbolsByPartition = new Map<number, SymbolMarket[]>();

  constructor(configs: readonly MarketSymbolConfig[], partitionOf: (symbol: string) => number) {
    const symbols = new Map<string, SymbolMarket>();
    for (const config of configs) {
      const partition = partitionOf(config.symbol);
      const market = new SymbolMarket(
        config.symbol,
        SymbolScale.of(config),
        config.status,
        this.clock(partition),
        config.kind,
      );
      symbols.set(config.symbol, market);
      const list = this.symbolsByPartition.get(partition) ?? [];
      list.push(market);
      this.symbolsByPartition.set(partition, list);
    }
    this.symbols = symbols;
  }

  clock(partition: number): PartitionClock {
    let clock = this.clocks.get(partition);
    if (!clock) this.clocks.set(partition, (clock = { eventTime: 0, cutWindow: 0 }));
    return clock;
  }

  symbolsOf(partition: number): readonly SymbolMarket[] {
    return this.symbolsByPartition.get(partition) ?? [];
  }

  /** Folds one event of `partition`; what changed is appended to `changes` when given. */
  apply(partition: number, event: OrderEvent, changes?: MarketChange[]): void {
    this.version += 1;
    const time = this.advance(partition, event.ts, changes);
    const market = this.symbols.get(event.payload.symbol);
    if (!market) return;
    switch (event.type) {
      case 'BookChanged': {
        const p = event.payload;
        if (p.updateIdLast <= market.book.lastUpdateId) return;
        market.book.applyLevels('bids', p.bids);
        market.book.applyLevels('asks', p.asks);
        market.book.lastUpdateId = p.updateIdLast;
        market.book.time = time;
        market.bookVersion += 1;
        market.mergedDirty = true;
        changes?.push({
          kind: 'diffDepth',
          symbol: market.symbol,
          time,
          firstUpdateId: p.updateIdFirst,
          lastUpdateId: p.updateIdLast,
          ...this.levelsOf(market, p.bids, p.asks),
        });
        return;
      }
      case 'TradeExecuted': {
        const p = event.payload;
        const tradeId = Number(p.tradeId);
        // Already folded from the history store (a start from a snapshot older than the history).
        if (tradeId <= market.lastTradeId) return;
        this.addTrade(
          market,
          {
            tradeId,
            time,
            price: market.scale.price(p.price),
            qty: market.scale.qty(p.qty),
            isBuyerMaker: p.isBuyerMaker,
          },
          changes,
        );
        return;
      }
      case 'SymbolStatusChanged':
        market.status = event.payload.status;
        return;
      case 'OrderAccepted':
      case 'OrderRested':
      case 'OrderFilled':
      case 'OrderCanceled':
      case 'OrderRejected':
      case 'CancelRejected':
      case 'ClockTicked':
        return;
      default:
        unknownEvent(event);
    }
  }

  private addTrade(market: SymbolMarket, trade: PublicTrade, changes?: MarketChange[]): void {
    market.lastTradeId = trade.tradeId;
    market.trades.add(trade);
    for (const interval of klineIntervals) {
      const kline = market.series(interval).add(trade);
      changes?.push({ kind: 'kline', symbol: market.symbol, interval, kline });
    }
    market.ticker.add(trade);
    market.tickerVersion += 1;
    market.tradeVersion += 1;
    changes?.push({ kind: 'trade', symbol: market.symbol, trade }, { kind: 'ticker', symbol: market.symbol });
  }

  /**
   * Moves the partition's event time to `ts` (never back) and, before the event applies, closes
   * the 300 ms windows it passed (cutting merged depth of the symbols whose book changed) and
   * rolls the 24 h windows. Returns the event's time.
   */
  private advance(partition: number, ts: number, changes?: MarketChange[]): number {
    const clock = this.clock(partition);
    if (ts <= clock.eventTime) return clock.eventTime;
    clock.eventTime = ts;
    const window = Math.floor(ts / MERGED_DEPTH_CUT_MS);
    const markets = this.symbolsOf(partition);
    if (window > clock.cutWindow) {
      clock.cutWindow = window;
      for (const market of markets) {
        if (!market.mergedDirty) continue;
        market.cut();
        changes?.push({ kind: 'mergedDepth', symbol: market.symbol });
      }
    }
    for (const market of markets) {
      const oldest = market.ticker.oldestTime();
      if (oldest === undefined || oldest > ts - TICKER_WINDOW_MS) continue;
      market.ticker.roll(ts);
      market.tickerVersion += 1;
      changes?.push({ kind: 'ticker', symbol: market.symbol });
    }
    return ts;
  }

  private levelsOf(
    market: SymbolMarket,
    bids: readonly (readonly [string, string])[],
    asks: readonly (readonly [string, string])[],
  ) {
    const format = (levels: readonly (readonly [string, string])[]) =>
      levels.map(
        ([p, q]) =>
          [market.scale.formatPrice(market.scale.price(p)), market.scale.formatQty(market.scale.qty(q))] as const,
      );
    return { bids: format(bids), asks: format(asks) };
  }
}

/** Every book market data folds: the spot symbols, then the contracts (CONTRACTS.md: their own books, the same events). */
export function marketSymbolsOf(markets: Markets): MarketSymbolConfig[] {
  return [
    ...markets.symbols.map((s) => ({ ...s, kind: 'spot' as const })),
    ...markets.contracts.map((c) => ({ ...c, kind: 'contract' as const })),
  ];
}

function unknownEvent(event: never): never {
  throw new Error(`market fold: unknown event ${JSON.stringify(event)}`);
}
