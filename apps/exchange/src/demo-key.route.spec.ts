import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { isLoopback, registerDemoKeyRoute } from './demo-key.route';

const demo = { userId: '1', accountId: '2', apiKey: 'demo-key', secretKey: 'demo-secret' };

async function appWith(embeddedDefault: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'demo-key-'));
  writeFileSync(join(dataDir, 'demo.json'), JSON.stringify(demo));
  // Loopback proxies are trusted, as the exchange's HTTP app trusts them by default.
  const app = Fastify({ trustProxy: ['127.0.0.0/8', '::1/128'] });
  registerDemoKeyRoute(app, { dataDir, embeddedDefault });
  return app;
}

describe('the demo key route', () => {
  it('serves the demo key to a loopback client of the embedded default, never cached', async () => {
    const app = await appWith(true);
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const answer = await app.inject({ method: 'GET', url: '/web/v1/demo-key', remoteAddress });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ apiKey: 'demo-key', secretKey: 'demo-secret' });
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses any other client, also one forwarded by a trusted loopback proxy', async () => {
    const app = await appWith(true);
    const refusals = [
      await app.inject({ method: 'GET', url: '/web/v1/demo-key', remoteAddress: '10.1.2.3' }),
      await app.inject({
        method: 'GET',
        url: '/web/v1/demo-key',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      }),
    ];
    for (const answer of refusals) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json().code).toBe(-2015);
      expect(answer.body).not.toContain('demo-secret');
    }
  });

  it('refuses even loopback when the process is not the embedded default', async () => {
    const app = await appWith(false);
    const answer = await app.inject({ method: 'GET', url: '/web/v1/demo-key', remoteAddress: '127.0.0.1' });
    expect(answer.statusCode).toBe(403);
    expect(answer.body).not.toContain('demo-secret');
  });

  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', '::2', '1127.0.0.1'].some(isLoopback)).toBe(false);
  });
});
