import type { ContractPriceMessage, MarkContractPrice, SettleFunding } from '@exchange/contracts';

/**
 * What one record of market.contract-prices asks of one ledger partition: a new mark price
 * (liquidations, the fund's closing orders) or a funding fix. Its id is the price decision's id
 * and the partition, so every copy of one decision (market-data replicas publish the same one,
 * a relay repeats after a crash) is one command to each partition, decided once there.
 */
export function partitionCommandOf(message: ContractPriceMessage, partition: number, marketsVersion: number): MarkContractPrice | SettleFunding {
  const id = `${message.id}/${partition}`;
  if (message.type === 'ContractPricesChanged') {
    const { symbol, markPrice, indexPrice } = message.payload;
    return { type: 'MarkContractPrice', v: 1, id, ts: message.ts, payload: { symbol, markPrice, indexPrice, marketsVersion } };
  }
  const { symbol, fundingTime, rate, markPrice } = message.payload;
  return { type: 'SettleFunding', v: 1, id, ts: message.ts, payload: { symbol, fundingTime, rate, markPrice } };
}
