import { readFileSync } from 'node:fs';
import { assertContractConsistent } from './contract-markets';
import {
  type AssetConfig,
  type ContractConfig,
  marketsConfigSchema,
  type MarketsConfig,
  type SymbolConfig,
} from './markets.schema';

/**
 * What the matching engine needs of a symbol to keep its book: spot and contract books share the
 * book code, filters in ticks and lots, time in force, self-trade prevention and status.
 */
export interface BookConfig {
  symbol: string;
  kind: 'spot' | 'contract';
  status: SymbolConfig['status'];
  tickSize: string;
  stepSize: string;
}

/** What the environment may override in the file (CONTRACT_FUNDING_INTERVAL_MS: tests and demos fund in seconds). */
export interface MarketsOverrides {
  contractFundingIntervalMs?: number;
}

/**
 * The markets file, validated and indexed. Every service reads the same file; commands carry
 * `version` so a service can tell which configuration a check was made against.
 */
export class Markets {
  private readonly assetsByName: ReadonlyMap<string, AssetConfig>;
  private readonly symbolsByName: ReadonlyMap<string, SymbolConfig>;
  private readonly contractsByName: ReadonlyMap<string, ContractConfig>;
  private readonly booksByName: ReadonlyMap<string, BookConfig>;

  constructor(readonly config: MarketsConfig) {
    this.assetsByName = new Map(config.assets.map((a) => [a.asset, a]));
    this.symbolsByName = new Map(config.symbols.map((s) => [s.symbol, s]));
    for (const s of config.symbols) {
      for (const asset of [s.baseAsset, s.quoteAsset]) {
        if (!this.assetsByName.has(asset)) throw new Error(`markets: symbol ${s.symbol} names unknown asset ${asset}`);
      }
      assertAmountsFitPrecisions(s, this.assetsByName.get(s.baseAsset)!, this.assetsByName.get(s.quoteAsset)!);
    }
    const contracts = new Map<string, ContractConfig>();
    for (const c of config.contracts ?? []) {
      if (contracts.has(c.symbol)) throw new Error(`markets: contract ${c.symbol} is configured twice`);
      assertContractConsistent(c, this.symbolsByName, this.assetsByName);
      contracts.set(c.symbol, c);
    }
    this.contractsByName = contracts;
    const book = (kind: BookConfig['kind'], c: SymbolConfig | ContractConfig): [string, BookConfig] => [
      c.symbol,
      { symbol: c.symbol, kind, status: c.status, tickSize: c.tickSize, stepSize: c.stepSize },
    ];
    this.booksByName = new Map([
      ...config.symbols.map((s) => book('spot', s)),
      ...[...contracts.values()].map((c) => book('contract', c)),
    ]);
  }

  static fromJson(json: unknown, overrides: MarketsOverrides = {}): Markets {
    const config = marketsConfigSchema.parse(json);
    const interval = overrides.contractFundingIntervalMs;
    if (interval === undefined || config.contracts === undefined) return new Markets(config);
    return new Markets({ ...config, contracts: config.contracts.map((c) => ({ ...c, fundingIntervalMs: interval })) });
  }

  static fromFile(path: string, overrides: MarketsOverrides = {}): Markets {
    return Markets.fromJson(JSON.parse(readFileSync(path, 'utf8')), overrides);
  }

  get version(): number {
    return this.config.version;
  }

  get assets(): readonly AssetConfig[] {
    return this.config.assets;
  }

  /** Spot symbols only: every spot path reads these, so a contract symbol stays -1121 there. */
  get symbols(): readonly SymbolConfig[] {
    return this.config.symbols;
  }

  get contracts(): readonly ContractConfig[] {
    return [...this.contractsByName.values()];
  }

  /** Every book the matching engine keeps: the spot symbols, then the contracts. */
  get books(): readonly BookConfig[] {
    return [...this.booksByName.values()];
  }

  book(name: string): BookConfig | undefined {
    return this.booksByName.get(name);
  }

  asset(name: string): AssetConfig | undefined {
    return this.assetsByName.get(name);
  }

  /** A spot symbol; undefined for a contract symbol. */
  symbol(name: string): SymbolConfig | undefined {
    return this.symbolsByName.get(name);
  }

  contract(name: string): ContractConfig | undefined {
    return this.contractsByName.get(name);
  }
}

function decimalsOf(value: string): number {
  return value.split('.')[1]?.length ?? 0;
}

/**
 * A trade's quote amount is price × quantity exactly, so it carries the decimals of tickSize plus
 * those of stepSize; a balance must never hold more decimals than its asset allows (or its owner
 * could not move it all), so the file is refused at start instead of rounding money later.
 */
function assertAmountsFitPrecisions(s: SymbolConfig, base: AssetConfig, quote: AssetConfig): void {
  if (decimalsOf(s.stepSize) > base.precision)
    throw new Error(`markets: ${s.symbol} stepSize has more decimals than ${base.asset}'s precision ${base.precision}`);
  const quoteDecimals = decimalsOf(s.tickSize) + decimalsOf(s.stepSize);
  if (quoteDecimals > quote.precision) {
    throw new Error(
      `markets: ${s.symbol} tickSize × stepSize has ${quoteDecimals} decimals, more than ${quote.asset}'s precision ${quote.precision}`,
    );
  }
}
