import type { Markets } from '@exchange/contracts';
import { ApiError, ErrorCode, type RequestParams } from '@exchange/platform';
import { isKlineInterval, type KlineInterval, type MarketFold, type MarketKind, type SymbolMarket } from '../domain';

/** The public market endpoints' parameters, with the codes of API-DECISIONS.md for each mistake. */
export class QuoteParams {
  constructor(
    private readonly params: RequestParams,
    private readonly fold: MarketFold,
    private readonly v2Symbols: ReadonlyMap<string, string>,
  ) {}

  /**
   * `symbol` as the openapi family writes it (BTCUSDT): -1102 when missing, -1121 when unknown or
   * of the other family (a contract on a spot path, a spot symbol on a contract path).
   */
  symbol(kind: MarketKind = 'spot'): SymbolMarket {
    return this.known(this.params.required('symbol'), kind);
  }

  optionalSymbol(kind: MarketKind = 'spot'): SymbolMarket | undefined {
    const text = this.params.optional('symbol');
    return text === undefined ? undefined : this.known(text, kind);
  }

  /** `symbol` as the v2 family writes it (btc-usdt, case-insensitive). */
  v2Symbol(): SymbolMarket {
    return this.knownV2(this.params.required('symbol'));
  }

  optionalV2Symbol(): SymbolMarket | undefined {
    const text = this.params.optional('symbol');
    return text === undefined ? undefined : this.knownV2(text);
  }

  optionalText(name: string): string | undefined {
    return this.params.optional(name);
  }

  /** An integer limit in [min, max] (-1130 otherwise), `fallback` when absent. */
  limit(fallback: number, min: number, max: number): number {
    return this.params.optionalInt('limit', min, max) ?? fallback;
  }

  interval(): KlineInterval {
    const text = this.params.required('interval');
    if (!isKlineInterval(text))
      throw new ApiError(
        ErrorCode.INVALID_INTERVAL,
        `Invalid interval '${text}'; expected one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 8h, 12h, 1d, 1w, 1M.`,
      );
    return text;
  }

  /** The contract family's klines: `to` is its name for endTime; both at once is -1128. */
  endTimeOrTo(): number | undefined {
    const [endTime, to] = [this.time('endTime'), this.time('to')];
    if (endTime !== undefined && to !== undefined)
      throw new ApiError(ErrorCode.INVALID_PARAM_COMBINATION, 'Send endTime or to, not both.');
    return endTime ?? to;
  }

  /** A time in ms: digits only (-1100 otherwise), at most 2^53. */
  time(name: string): number | undefined {
    const text = this.params.optional(name);
    if (text === undefined) return undefined;
    if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
      throw new ApiError(
        ErrorCode.ILLEGAL_CHARS,
        `Illegal characters found in parameter '${name}'; a time in milliseconds is expected.`,
      );
    }
    return Number(text);
  }

  private known(symbol: string, kind: MarketKind): SymbolMarket {
    const market = this.fold.symbols.get(symbol);
    if (market?.kind !== kind) throw unknownSymbol(symbol);
    return market;
  }

  private knownV2(pair: string): SymbolMarket {
    const symbol = this.v2Symbols.get(pair.toLowerCase());
    const market = symbol === undefined ? undefined : this.fold.symbols.get(symbol);
    if (market?.kind !== 'spot') throw unknownSymbol(pair);
    return market;
  }
}

function unknownSymbol(symbol: string): ApiError {
  return new ApiError(ErrorCode.INVALID_SYMBOL, `Invalid symbol '${symbol.slice(0, 40)}'.`);
}

/** btc-usdt → BTCUSDT for every configured symbol. */
export function v2SymbolIndex(markets: Markets): Map<string, string> {
  return new Map(markets.symbols.map((s) => [`${s.baseAsset}-${s.quoteAsset}`.toLowerCase(), s.symbol]));
}

/** The spec's depth weights: 1 up to 100 levels, 5 up to 500, 10 up to 1000, 50 for the whole book (0). */
export function depthWeight(limit: number): number {
  if (limit === 0) return 50;
  if (limit <= 100) return 1;
  return limit <= 500 ? 5 : 10;
}

/** limit=0: the whole book, up to this many levels per side. */
export const FULL_BOOK_LEVELS = 5000;
