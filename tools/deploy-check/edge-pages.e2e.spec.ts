import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureWebBuild, WEB_CSP } from '@exchange/platform';
import { edgePagesConf, freePort, nginxBinary } from '../../test/support/distributed-exchange';
import { http } from '../../test/support/http-client';
import { waitFor } from '../../test/support/wait-for';

const root = resolve(__dirname, '../..');
const deploy = join(root, 'deploy/nginx');
const nginx = nginxBinary();
if (!nginx && process.env.REQUIRE_REAL_SERVICES === '1')
  throw new Error('edge pages: nginx is not installed, but REQUIRE_REAL_SERVICES=1 demands it');
if (!nginx) console.log('skipped: edge pages (install nginx: scripts/ensure-local-services.sh)');
const run = nginx ? describe : describe.skip;

/**
 * The distributed mode's edge serves the pages itself: edge.docker.conf as compose runs it, with
 * dist/web where the volume would be and no service behind it (the pages need none to load).
 */
run('the edge (nginx) serves the web pages as the embedded default does', () => {
  let child: ChildProcess;
  let dir: string;
  let base: string;

  beforeAll(async () => {
    const build = await ensureWebBuild({ root });
    dir = mkdtempSync(join(tmpdir(), 'edge-pages-'));
    chmodSync(dir, 0o755);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const server = readFileSync(join(deploy, 'edge.docker.conf'), 'utf8')
      // Nothing listens on port 9: every proxied route answers the edge's own 503 envelope.
      .replace(/server ([\w-]+):8080;/g, 'server 127.0.0.1:9;')
      .replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
      .replace('/etc/nginx/exchange/edge-pages.conf', edgePagesConf(dir, build.dir))
      .replaceAll('/etc/nginx/exchange/', `${deploy}/`);
    for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
    const conf = [
      'daemon off;',
      'master_process off;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 64; }',
      'http {',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
      `  access_log off;`,
      server,
      '}',
    ].join('\n');
    writeFileSync(join(dir, 'nginx.conf'), conf);
    child = spawn(nginx!, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
    await waitFor(
      async () => (await http(base, 'GET', '/').catch(() => ({ status: 0 }))).status === 200,
      'nginx to serve',
      20_000,
      50,
    );
  });

  afterAll(() => {
    child?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves both pages and their assets with the same types, caching and CSP, and still proxies the operator API', async () => {
    for (const path of ['/', '/admin/']) {
      const page = await http<string>(base, 'GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toBe(WEB_CSP);
      const assets = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThan(1);
      for (const asset of assets) {
        const answer = await http<string>(base, 'GET', asset, { headers: { 'accept-encoding': 'gzip' } });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe(
          asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
        );
        expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      }
    }
    expect((await http(base, 'GET', '/assets/missing.js')).body).toEqual({ code: -1020, msg: expect.any(String) });
    expect((await http(base, 'GET', '/admin/v1/users')).body).toEqual({ code: -1016, msg: expect.any(String) });
    expect((await http(base, 'GET', '/openapi/v1/time')).body).toEqual({ code: -1016, msg: expect.any(String) });
  });
});
