import type { ContractConfig } from '@exchange/contracts';
import type { MarketChange } from '../market-change';
import type { MarketFold } from '../market-fold';
import type { SymbolMarket } from '../symbol-market';
import type { ContractPriceConfig, PriceInput } from './index';

/** One minute of one-second basis samples: the mark follows the contract's mid, not its last tick. */
export const BASIS_WINDOW_SECONDS = 60;

export function contractPriceConfigOf(c: ContractConfig): ContractPriceConfig {
  return { symbol: c.symbol, index: c.index, indexSource: c.indexSource, tickSize: c.tickSize, fundingIntervalMs: c.fundingIntervalMs, basisWindow: BASIS_WINDOW_SECONDS };
}

function top(market: SymbolMarket): { bid?: string; ask?: string } {
  const bid = market.book.bids.best()?.[0];
  const ask = market.book.asks.best()?.[0];
  return { ...(bid !== undefined && { bid }), ...(ask !== undefined && { ask }) };
}

/**
 * The prices fold's inputs for one folded event of a partition: the top of each index or contract
 * book it changed and each index's last trade, as they stand after the event, then the
 * partition's event time as a clock.
 */
export function priceInputsOf(fold: MarketFold, partition: number, changes: readonly MarketChange[], indexSymbols: ReadonlySet<string>): PriceInput[] {
  const at = fold.clock(partition).eventTime;
  const tops = new Set<string>();
  const trades = new Map<string, string>();
  for (const c of changes) {
    const market = fold.symbols.get(c.symbol);
    if (!market || (market.kind === 'spot' && !indexSymbols.has(c.symbol))) continue;
    if (c.kind === 'diffDepth') tops.add(c.symbol);
    else if (c.kind === 'trade' && market.kind === 'spot') trades.set(c.symbol, market.scale.formatPrice(c.trade.price));
  }
  const inputs: PriceInput[] = [];
  for (const symbol of tops) {
    const market = fold.symbols.get(symbol)!;
    inputs.push({ type: market.kind === 'spot' ? 'SpotTop' : 'ContractTop', symbol, ...top(market), at });
  }
  for (const [symbol, price] of trades) inputs.push({ type: 'SpotTrade', symbol, price, at });
  inputs.push({ type: 'Clock', at });
  return inputs;
}

/** Everything the fold holds of the prices' sources, for a decider that starts on a caught-up fold. */
export function seedInputsOf(fold: MarketFold, symbols: Iterable<string>): PriceInput[] {
  const inputs: PriceInput[] = [];
  for (const symbol of symbols) {
    const market = fold.symbols.get(symbol);
    // A partition that never saw an event has no time to price at.
    if (!market || market.clock.eventTime === 0) continue;
    const at = market.clock.eventTime;
    const last = market.ticker.stats().lastPrice;
    if (market.kind === 'spot' && last !== undefined) inputs.push({ type: 'SpotTrade', symbol, price: market.scale.formatPrice(last), at });
    inputs.push({ type: market.kind === 'spot' ? 'SpotTop' : 'ContractTop', symbol, ...top(market), at });
  }
  return inputs;
}
