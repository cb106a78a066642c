import { ExternalIndex, type IndexPriceSource, PriceDecimal, SpotMidIndex, type SpotQuote } from './index-price-source';
import { type ContractPriceConfig, fundingRateOf, markPriceOf, premiumOf } from './contract-price-rules';

/** What the prices fold consumes, each at its event time (ms): the engine's books and trades, the operator, a clock. */
export type PriceInput =
  | { type: 'SpotTop'; symbol: string; bid?: string; ask?: string; at: number }
  | { type: 'SpotTrade'; symbol: string; price: string; at: number }
  | { type: 'ContractTop'; symbol: string; bid?: string; ask?: string; at: number }
  | { type: 'ExternalIndex'; index: string; price: string; at: number }
  | { type: 'Clock'; at: number };

/** What it publishes: new prices (for liquidation, quotes and streams) and each interval's funding rate. */
export type PriceOutput =
  | { type: 'ContractPricesChanged'; symbol: string; indexPrice: string; markPrice: string; at: number }
  | { type: 'FundingRateFixed'; symbol: string; fundingTime: number; rate: string; premium: string; markPrice: string };

export interface ContractPrices {
  config: ContractPriceConfig;
  bid?: PriceDecimal;
  ask?: PriceDecimal;
  /** The last basisWindow one-second samples of contract mid − index, oldest first, and their sum. */
  basis: PriceDecimal[];
  basisSum: PriceDecimal;
  /** This funding interval's premium samples. */
  premiumSum: PriceDecimal;
  premiumCount: number;
  index?: PriceDecimal;
  mark?: PriceDecimal;
  /** The end of the funding interval being sampled (0 until the first input fixes it). */
  fundingDue: number;
}

export interface ContractPriceState {
  /** Event time reached; the second samples are taken at each whole second up to it. */
  at: number;
  spot: Map<string, SpotQuote>;
  external: Map<string, PriceDecimal>;
  contracts: Map<string, ContractPrices>;
}

export function initialContractPriceState(configs: readonly ContractPriceConfig[]): ContractPriceState {
  const contracts = new Map(
    configs.map((config) => [
      config.symbol,
      {
        config,
        basis: [],
        basisSum: new PriceDecimal(0),
        premiumSum: new PriceDecimal(0),
        premiumCount: 0,
        fundingDue: 0,
      },
    ]),
  );
  return { at: -1, spot: new Map(), external: new Map(), contracts };
}

const decimal = (text: string | undefined) => (text === undefined ? undefined : new PriceDecimal(text));

/**
 * The index and mark prices and funding rates as a fold over event-time inputs: two replicas, or
 * a replay, that consume the same inputs publish the same outputs. Time first advances to the
 * input's time (each whole second between is sampled with the prices as they were, so a quiet
 * market still moves the average), then the input applies. Mutable, like the other folds here.
 */
export function advanceContractPrices(state: ContractPriceState, input: PriceInput): PriceOutput[] {
  const outputs: PriceOutput[] = [];
  const at = Math.max(state.at, input.at);
  // A new second samples every contract; otherwise only the contracts the input prices can move.
  const sampled = state.at < 0 || Math.floor(at / 1000) > Math.floor(state.at / 1000);
  for (const prices of state.contracts.values()) sampleUntil(state, prices, at, outputs);
  state.at = at;
  apply(state, input);
  for (const prices of state.contracts.values()) {
    if (!sampled && !moves(input, prices.config)) continue;
    const index = sourceOf(state, prices.config).indexPrice(prices.config.index);
    if (!index) continue;
    const mark = markPriceOf(index, averageBasis(prices), prices.config.tickSize);
    if (prices.index?.eq(index) && prices.mark?.eq(mark)) continue;
    [prices.index, prices.mark] = [index, mark];
    outputs.push({
      type: 'ContractPricesChanged',
      symbol: prices.config.symbol,
      indexPrice: index.toFixed(),
      markPrice: mark.toFixed(),
      at,
    });
  }
  return outputs;
}

export function evolveContractPrices(state: ContractPriceState, input: PriceInput): ContractPriceState {
  advanceContractPrices(state, input);
  return state;
}

function apply(state: ContractPriceState, input: PriceInput): void {
  switch (input.type) {
    case 'SpotTop':
      state.spot.set(input.symbol, {
        ...state.spot.get(input.symbol),
        bid: decimal(input.bid),
        ask: decimal(input.ask),
      });
      return;
    case 'SpotTrade':
      state.spot.set(input.symbol, { ...state.spot.get(input.symbol), last: new PriceDecimal(input.price) });
      return;
    case 'ContractTop': {
      const prices = state.contracts.get(input.symbol);
      if (prices) [prices.bid, prices.ask] = [decimal(input.bid), decimal(input.ask)];
      return;
    }
    case 'ExternalIndex':
      state.external.set(input.index, new PriceDecimal(input.price));
      return;
    case 'Clock':
      return;
    default: {
      const unexpected: never = input;
      throw new Error(`contract prices: unknown input ${String((unexpected as { type: unknown }).type)}`);
    }
  }
}

/** Whether the input can move the contract's index (its mark moves with the index, or with a second's sample). */
function moves(input: PriceInput, config: ContractPriceConfig): boolean {
  switch (input.type) {
    case 'SpotTop':
    case 'SpotTrade':
      return config.indexSource === 'spot' && input.symbol === config.index;
    case 'ExternalIndex':
      return config.indexSource === 'external' && input.index === config.index;
    case 'ContractTop':
    case 'Clock':
      return false;
    default: {
      const unexpected: never = input;
      throw new Error(`contract prices: unknown input ${String((unexpected as { type: unknown }).type)}`);
    }
  }
}

function sourceOf(state: ContractPriceState, config: ContractPriceConfig): IndexPriceSource {
  return config.indexSource === 'external' ? new ExternalIndex(state.external) : new SpotMidIndex(state.spot);
}

function averageBasis(prices: ContractPrices): PriceDecimal {
  return prices.basis.length === 0 ? new PriceDecimal(0) : prices.basisSum.div(prices.basis.length);
}

/**
 * Takes the samples of every whole second in (state.at, at], fixing the funding rate at each
 * interval's end. The prices do not change between inputs, so once the basis window is full of
 * the same sample every further second is the same: those are counted, not looped over.
 */
function sampleUntil(state: ContractPriceState, prices: ContractPrices, at: number, outputs: PriceOutput[]): void {
  const interval = prices.config.fundingIntervalMs;
  if (prices.fundingDue === 0) prices.fundingDue = (Math.floor(at / interval) + 1) * interval;
  let second = state.at < 0 ? Math.floor(at / 1000) * 1000 : (Math.floor(state.at / 1000) + 1) * 1000;
  if (second > at) return;
  const index = sourceOf(state, prices.config).indexPrice(prices.config.index);
  while (second <= at) {
    const until = Math.min(at, prices.fundingDue);
    if (index) {
      let looped = 0;
      for (; second <= until && looped <= prices.config.basisWindow; second += 1000, looped++)
        sampleOnce(prices, index);
      if (second <= until) {
        const rest = Math.floor((until - second) / 1000) + 1;
        prices.premiumSum = prices.premiumSum.plus(
          premiumOf(markPriceOf(index, averageBasis(prices), prices.config.tickSize), index).times(rest),
        );
        prices.premiumCount += rest;
        second += rest * 1000;
      }
    } else {
      second = Math.max(second, (Math.floor(until / 1000) + 1) * 1000);
    }
    if (second > prices.fundingDue) fixFunding(prices, index, outputs);
  }
}

function sampleOnce(prices: ContractPrices, index: PriceDecimal): void {
  if (prices.bid && prices.ask) {
    const basis = prices.bid.plus(prices.ask).div(2).minus(index);
    prices.basis.push(basis);
    prices.basisSum = prices.basisSum.plus(basis);
    if (prices.basis.length > prices.config.basisWindow) prices.basisSum = prices.basisSum.minus(prices.basis.shift()!);
  }
  prices.premiumSum = prices.premiumSum.plus(
    premiumOf(markPriceOf(index, averageBasis(prices), prices.config.tickSize), index),
  );
  prices.premiumCount += 1;
}

/** The interval's rate, paid at the mark of its last second; without an index there is nothing to pay at. */
function fixFunding(prices: ContractPrices, index: PriceDecimal | undefined, outputs: PriceOutput[]): void {
  const premium =
    prices.premiumCount === 0
      ? new PriceDecimal(0)
      : prices.premiumSum.div(prices.premiumCount).toDecimalPlaces(12, PriceDecimal.ROUND_HALF_EVEN);
  if (index) {
    const mark = markPriceOf(index, averageBasis(prices), prices.config.tickSize);
    outputs.push({
      type: 'FundingRateFixed',
      symbol: prices.config.symbol,
      fundingTime: prices.fundingDue,
      rate: fundingRateOf(premium).toFixed(),
      premium: premium.toFixed(),
      markPrice: mark.toFixed(),
    });
  }
  prices.premiumSum = new PriceDecimal(0);
  prices.premiumCount = 0;
  prices.fundingDue += prices.config.fundingIntervalMs;
}
