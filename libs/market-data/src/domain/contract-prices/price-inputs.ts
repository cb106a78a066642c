import type { ContractConfig } from '@exchange/contracts';
import type { MarketChange } from '../market-change';
import type { MarketFold } from '../market-fold';
import type { SymbolMarket } from '../symbol-market';
import {
  advanceContractPrices,
  type ContractPriceState,
  type PriceInput,
  type PriceOutput,
} from './contract-price-fold';
import type { ContractPriceConfig } from './contract-price-rules';

/** One minute of one-second basis samples: the mark follows the contract's mid, not its last tick. */
export const BASIS_WINDOW_SECONDS = 60;

export function contractPriceConfigOf(c: ContractConfig): ContractPriceConfig {
  return {
    symbol: c.symbol,
    index: c.index,
    indexSource: c.indexSource,
    tickSize: c.tickSize,
    fundingIntervalMs: c.fundingIntervalMs,
    basisWindow: BASIS_WINDOW_SECONDS,
  };
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
export function priceInputsOf(
  fold: MarketFold,
  partition: number,
  changes: readonly MarketChange[],
  indexSymbols: ReadonlySet<string>,
): PriceInput[] {
  const at = fold.clock(partition).eventTime;
  const tops = new Set<string>();
  const trades = new Map<string, string>();
  for (const c of changes) {
    const market = fold.symbols.get(c.symbol);
    if (!market || (market.kind === 'spot' && !indexSymbols.has(c.symbol))) continue;
    if (c.kind === 'diffDepth') tops.add(c.symbol);
    else if (c.kind === 'trade' && market.kind === 'spot')
      trades.set(c.symbol, market.scale.formatPrice(c.trade.price));
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
    if (market.kind === 'spot' && last !== undefined)
      inputs.push({ type: 'SpotTrade', symbol, price: market.scale.formatPrice(last), at });
    inputs.push({ type: market.kind === 'spot' ? 'SpotTop' : 'ContractTop', symbol, ...top(market), at });
  }
  return inputs;
}

/** What the prices fold last took of each source (a top's or a trade's text): an input that repeats it changes nothing. */
export type LastInputs = Map<string, string>;

function isNew(last: LastInputs, input: PriceInput): boolean {
  if (input.type === 'Clock' || input.type === 'ExternalIndex') return true;
  const key = `${input.type}|${input.symbol}`;
  const text = input.type === 'SpotTrade' ? input.price : `${input.bid ?? ''}|${input.ask ?? ''}`;
  if (last.get(key) === text) return false;
  last.set(key, text);
  return true;
}

/**
 * The prices fold's step for one folded event: its outputs, or undefined when the event changes
 * no top or index trade (a level behind the best, another symbol) and stays within the second the
 * fold has reached, so it samples nothing and moves no price: such events cost a map lookup, not
 * a pass over every contract in exact decimals.
 */
export function advanceOnEvent(
  state: ContractPriceState,
  last: LastInputs,
  fold: MarketFold,
  partition: number,
  changes: readonly MarketChange[],
  indexSymbols: ReadonlySet<string>,
): PriceOutput[] | undefined {
  const sameSecond = Math.floor(fold.clock(partition).eventTime / 1000) <= Math.floor(state.at / 1000);
  const priced = (c: MarketChange) =>
    (c.kind === 'diffDepth' || c.kind === 'trade') && (indexSymbols.has(c.symbol) || state.contracts.has(c.symbol));
  if (sameSecond && !changes.some(priced)) return undefined;
  const inputs = priceInputsOf(fold, partition, changes, indexSymbols).filter((input) => isNew(last, input));
  if (inputs.length === 1 && Math.floor(inputs[0]!.at / 1000) <= Math.floor(state.at / 1000)) return undefined;
  return inputs.flatMap((input) => advanceContractPrices(state, input));
}
