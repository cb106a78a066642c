import { request } from 'node:http';
import { startWebExchange, type WebExchange } from '../../../test/support/web-exchange';
import { http } from '../../../test/support/http-client';

/** One GET with the raw bytes as they travel (Node's fetch would decompress them). */
function rawGet(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(baseUrl + path, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes }));
    })
      .on('error', reject)
      .end();
  });
}

const FIRST_LOAD_BUDGET = 300 * 1024;

/** The pages as `npm start` serves them: built at start, typed, cached by hash, same-origin only. */
describe('the web pages of the embedded default', () => {
  let web: WebExchange;
  beforeAll(async () => {
    web = await startWebExchange();
  }, 120_000);
  afterAll(() => web?.stop());

  it('serves both pages and their assets with their types, caching and a self-only CSP, and a first load well under 300 KB compressed', async () => {
    for (const path of ['/', '/admin/']) {
      const page = await http<string>(web.baseUrl, 'GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toMatch(
        /^default-src 'self'; script-src 'self'; style-src 'self';/,
      );
      expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe|\*|https?:/);

      const assets = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
      expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
      let compressed = (await rawGet(web.baseUrl, path, { 'accept-encoding': 'gzip' })).bytes;
      for (const asset of assets) {
        const answer = await rawGet(web.baseUrl, asset, { 'accept-encoding': 'gzip, deflate, br' });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe(
          asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
        );
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(answer.headers['content-encoding']).toBe('gzip');
        compressed += answer.bytes;
      }
      console.log(
        `first load of ${path}: ${(compressed / 1024).toFixed(1)} KB gzip (${assets.length} assets; the chart library loads later)`,
      );
      expect(compressed).toBeLessThan(FIRST_LOAD_BUDGET);
    }
    expect((await http(web.baseUrl, 'GET', '/assets/nothing-here.js')).body).toEqual({
      code: -1020,
      msg: expect.any(String),
    });
    const bare = await rawGet(web.baseUrl, '/admin');
    expect([bare.status, bare.headers.location]).toEqual([301, '/admin/']);
  });

  it('gives the demo key to this machine and refuses a client forwarded from elsewhere', async () => {
    const local = await http<{ apiKey: string; secretKey: string }>(web.baseUrl, 'GET', '/web/v1/demo-key');
    expect(local.status).toBe(200);
    expect(web.exchange.output()).toContain(local.body.secretKey);
    const forwarded = await http<{ code: number }>(web.baseUrl, 'GET', '/web/v1/demo-key', {
      headers: { 'x-forwarded-for': '198.51.100.20' },
    });
    expect(forwarded.status).toBe(403);
    expect(forwarded.body.code).toBe(-2015);
    expect(JSON.stringify(forwarded.body)).not.toContain(local.body.secretKey);
  });
});
