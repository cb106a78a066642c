import type { ContractPriceStateSaved } from '@exchange/contracts';
import type { ContractPrices, ContractPriceState, PriceOutput } from './contract-price-fold';
import { fundingRateOf } from './contract-price-rules';
import { PriceDecimal } from './index-price-source';

export type ContractPriceRecord = ContractPriceStateSaved['payload'];

/**
 * What the public answers show of contract prices: per contract the latest state record of
 * market.contract-price-state. Every replica's decider publishes, so one decision may arrive
 * several times: the first record of an event time and step wins and older ones are ignored, which every
 * reader of the topic does alike, so replicas at the same offsets show the same prices.
 */
export class ContractPriceBoard {
  private readonly records = new Map<string, ContractPriceRecord>();
  private readonly listeners: ((record: ContractPriceRecord) => void)[] = [];
  /** Counts accepted records: answers are cached while it stands still. */
  version = 0;

  accept(record: ContractPriceRecord): boolean {
    const held = this.records.get(record.symbol);
    if (held !== undefined && (record.at < held.at || (record.at === held.at && record.seq <= held.seq))) return false;
    this.records.set(record.symbol, record);
    this.version += 1;
    if (held?.markPrice !== record.markPrice || held?.indexPrice !== record.indexPrice)
      for (const listener of this.listeners) listener(record);
    return true;
  }

  /** Told of each accepted record whose index or mark price moved (the public streams' markPrice and index topics). */
  onAccepted(listener: (record: ContractPriceRecord) => void): void {
    this.listeners.push(listener);
  }

  get(symbol: string): ContractPriceRecord | undefined {
    return this.records.get(symbol);
  }

  all(): ContractPriceRecord[] {
    return [...this.records.values()];
  }
}

/** The last rate each contract fixed, which the fold itself does not keep. */
export type FixedRates = Map<string, { rate: string; time: number }>;

export function noteFixedRates(fixed: FixedRates, outputs: readonly PriceOutput[]): void {
  for (const o of outputs)
    if (o.type === 'FundingRateFixed') fixed.set(o.symbol, { rate: o.rate, time: o.fundingTime });
}

/** One contract's fold state as the record replicas serve and a decider restarts from. */
export function priceRecordOf(
  state: ContractPriceState,
  prices: ContractPrices,
  fixed: FixedRates,
  seq: number,
): ContractPriceRecord {
  const average =
    prices.premiumCount === 0
      ? new PriceDecimal(0)
      : prices.premiumSum.div(prices.premiumCount).toDecimalPlaces(12, PriceDecimal.ROUND_HALF_EVEN);
  const last = fixed.get(prices.config.symbol);
  return {
    symbol: prices.config.symbol,
    at: state.at,
    seq,
    ...(prices.index && { indexPrice: prices.index.toFixed() }),
    ...(prices.mark && { markPrice: prices.mark.toFixed() }),
    ...(last && { fundingRate: last.rate, fundingTime: last.time }),
    nextFundingRate: fundingRateOf(average).toFixed(),
    nextFundingTime: prices.fundingDue,
    ...(prices.bid && { bid: prices.bid.toFixed() }),
    ...(prices.ask && { ask: prices.ask.toFixed() }),
    basis: prices.basis.map((b) => b.toFixed()),
    premiumSum: prices.premiumSum.toFixed(),
    premiumCount: prices.premiumCount,
  };
}

/** Puts a saved record back into a fresh fold (a decider's start), with its last fixed rate. */
export function restorePriceRecord(state: ContractPriceState, fixed: FixedRates, record: ContractPriceRecord): void {
  const prices = state.contracts.get(record.symbol);
  if (!prices) return;
  const decimal = (text: string | undefined) => (text === undefined ? undefined : new PriceDecimal(text));
  prices.basis = record.basis.map((b) => new PriceDecimal(b));
  prices.basisSum = prices.basis.reduce((sum, b) => sum.plus(b), new PriceDecimal(0));
  prices.premiumSum = new PriceDecimal(record.premiumSum);
  prices.premiumCount = record.premiumCount;
  prices.fundingDue = record.nextFundingTime;
  [prices.bid, prices.ask, prices.index, prices.mark] = [
    decimal(record.bid),
    decimal(record.ask),
    decimal(record.indexPrice),
    decimal(record.markPrice),
  ];
  if (record.fundingRate !== undefined && record.fundingTime !== undefined)
    fixed.set(record.symbol, { rate: record.fundingRate, time: record.fundingTime });
  state.at = Math.max(state.at, record.at);
}
