import Decimal from 'decimal.js';
import type { AssetConfig, ContractConfig, SymbolConfig } from './markets.schema';

/** The one margin token this exchange settles contracts in (CONTRACTS.md: linear USDT swaps). */
export const CONTRACT_MARGIN_TOKEN = 'USDT';

function decimalsOf(value: string): number {
  return value.split('.')[1]?.length ?? 0;
}

/**
 * Refuses, at start, a contract the ledger could not settle exactly or whose margin rules
 * contradict themselves: every check here is one that would otherwise surface as a rounding,
 * a negative balance or an unreachable leverage in the middle of trading.
 */
export function assertContractConsistent(
  c: ContractConfig,
  spot: ReadonlyMap<string, SymbolConfig>,
  assets: ReadonlyMap<string, AssetConfig>,
): void {
  const fail = (why: string): never => {
    throw new Error(`markets: contract ${c.symbol} ${why}`);
  };
  if (spot.has(c.symbol)) fail('has the name of a spot symbol');
  // The v2 family names spot pairs base-quote (btc-usdt): a contract of that name would be ambiguous there.
  const pair = [...spot.values()].find((s) => `${s.baseAsset}-${s.quoteAsset}` === c.symbol);
  if (pair) fail(`has the name of spot symbol ${pair.symbol}'s v2 pair`);
  if (c.marginToken !== CONTRACT_MARGIN_TOKEN)
    fail(`is margined in ${c.marginToken}; only ${CONTRACT_MARGIN_TOKEN} is supported`);
  const margin = assets.get(c.marginToken) ?? fail(`names unknown margin token ${c.marginToken}`);
  if (c.indexSource === 'spot') {
    const index = spot.get(c.index) ?? fail(`names unknown index symbol ${c.index}`);
    if (index.quoteAsset !== c.marginToken)
      fail(`index ${c.index} is quoted in ${index.quoteAsset}, not ${c.marginToken}`);
  } else if (!/^[A-Z0-9]+(-[A-Z0-9]+)*$/.test(c.index))
    fail(`names external index '${c.index}', which is not upper-case words joined by hyphens`);
  for (const field of ['contractMultiplier', 'tickSize', 'stepSize', 'maxLeverage'] as const) {
    if (new Decimal(c[field]).lte(0)) fail(`${field} must be greater than zero`);
  }
  // A fill's value is price × quantity × multiplier, and realised PnL a difference of two values:
  // both must be exact at the margin token's precision, so no payment is ever rounded but fees and margins.
  const valueDecimals = decimalsOf(c.tickSize) + decimalsOf(c.stepSize) + decimalsOf(c.contractMultiplier);
  if (valueDecimals > margin.precision) {
    fail(
      `tickSize × stepSize × contractMultiplier has ${valueDecimals} decimals, more than ${margin.asset}'s precision ${margin.precision}`,
    );
  }
  assertRiskLimits(c, fail);
}

function assertRiskLimits(c: ContractConfig, fail: (why: string) => never): void {
  const ids = new Set<string>();
  let previous: ContractConfig['riskLimits'][number] | undefined;
  for (const tier of c.riskLimits) {
    if (ids.has(tier.riskLimitId)) fail(`repeats riskLimitId ${tier.riskLimitId}`);
    ids.add(tier.riskLimitId);
    const [quantity, initial, maint] = [
      new Decimal(tier.quantity),
      new Decimal(tier.initialMargin),
      new Decimal(tier.maintMargin),
    ];
    if (maint.lte(0) || maint.gte(initial))
      fail(`tier ${tier.riskLimitId}: maintMargin must be above 0 and below initialMargin`);
    if (initial.gt(1)) fail(`tier ${tier.riskLimitId}: initialMargin above 1`);
    if (previous !== undefined) {
      const increasing =
        quantity.gt(previous.quantity) && initial.gte(previous.initialMargin) && maint.gte(previous.maintMargin);
      if (!increasing)
        fail(
          `tier ${tier.riskLimitId} does not increase on tier ${previous.riskLimitId} (quantity up, margins not down)`,
        );
    }
    previous = tier;
  }
  const first = c.riskLimits[0]!;
  const leverage = new Decimal(c.maxLeverage);
  if (leverage.lt(1)) fail('maxLeverage below 1');
  if (leverage.times(first.initialMargin).gt(1))
    fail(`maxLeverage ${c.maxLeverage} is above 1 / initialMargin of tier ${first.riskLimitId}`);
}
