import { ApiError } from '@exchange/platform';
import { ParsedQueries } from './parsed-queries';

describe('ParsedQueries', () => {
  it('answers a repeated query with the same parameters', () => {
    const queries = new ParsedQueries();
    for (let i = 0; i < 3; i++) {
      const params = queries.of('/openapi/quote/v1/depth?symbol=BTCUSDT&limit=100');
      expect(params.required('symbol')).toBe('BTCUSDT');
      expect(params.optionalInt('limit', 0, 1000)).toBe(100);
    }
    expect(queries.of('/openapi/quote/v1/depth').optional('symbol')).toBeUndefined();
  });

  it('refuses a bad query every time it comes, never keeping it', () => {
    const queries = new ParsedQueries();
    for (let i = 0; i < 2; i++) {
      const refused = (() => {
        try {
          queries.of('/openapi/quote/v1/depth?symbol=BTCUSDT&symbol=ETHBTC');
        } catch (error) {
          return error as ApiError;
        }
      })();
      expect(refused).toMatchObject({ code: -1101 });
    }
    expect(queries.size).toBe(0);
  });

  it('holds at most its bound, however many distinct queries pass', () => {
    const queries = new ParsedQueries(10_000);
    for (let limit = 0; limit < 2_000; limit++) queries.of(`/openapi/quote/v1/depth?symbol=BTCUSDT&limit=${limit}`);
    expect(queries.size).toBeLessThanOrEqual(10_000);
    expect(queries.size).toBeGreaterThan(9_000);
  });
});
