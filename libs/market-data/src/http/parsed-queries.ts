import { LRUCache } from 'lru-cache';
import { RequestParams } from '@exchange/platform';

/**
 * The public GETs' query strings, each parsed once: clients poll the same few
 * (`symbol=BTCUSDT&limit=100`) many times a second, and a parse is a pure function of the text
 * into an immutable RequestParams (issue 16). A query that is refused throws before it is kept,
 * so its error is answered every time. Bounded by the characters of the texts kept.
 */
export class ParsedQueries {
  private readonly parsed: LRUCache<string, RequestParams>;

  constructor(maxChars = 1024 * 1024) {
    // 64: about what a parsed query holds beyond its text, so many short queries are bounded too.
    this.parsed = new LRUCache({ maxSize: maxChars, sizeCalculation: (_params, query) => query.length + 64 });
  }

  /** Characters held, with the allowance per query. */
  get size(): number {
    return this.parsed.calculatedSize;
  }

  of(url: string): RequestParams {
    const q = url.indexOf('?');
    const query = q < 0 ? '' : url.slice(q + 1);
    let params = this.parsed.get(query);
    if (params === undefined) {
      params = RequestParams.fromRaw(query, undefined, undefined);
      this.parsed.set(query, params);
    }
    return params;
  }
}
