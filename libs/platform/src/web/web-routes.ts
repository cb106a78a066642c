import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebBuild } from './web-build';

/** Same origin only: the pages load nothing from elsewhere and talk only to this host (ws included). */
export const WEB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

interface Served {
  body: Buffer;
  gzip: Buffer;
  type: string;
  cache: string;
}

/**
 * Serves the built pages from memory: `/` (trading), `/admin/` (operator console) and `/assets/*`.
 * Assets have content hashes in their names and are cached for a year; the pages are revalidated
 * on every visit so a new build is picked up at once. Gzip when the browser accepts it.
 */
export function registerWebRoutes(fastify: FastifyInstance, build: WebBuild): void {
  const files = new Map<string, Served>();
  const load = (file: string, cache: string): Served => {
    const body = readFileSync(join(build.dir, file));
    return {
      body,
      gzip: gzipSync(body, { level: 9 }),
      type: TYPES[extname(file)] ?? 'application/octet-stream',
      cache,
    };
  };
  for (const page of build.pages) files.set(page.path, load(page.file, 'no-cache'));
  for (const file of new Set([
    ...build.pages.flatMap((p) => p.firstLoad.filter((f) => f.startsWith('assets/'))),
    ...build.lazy,
  ])) {
    files.set(`/${file}`, load(file, 'public, max-age=31536000, immutable'));
  }

  const send = (request: FastifyRequest, reply: FastifyReply, served: Served) => {
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    void reply
      .header('content-type', served.type)
      .header('cache-control', served.cache)
      .header('content-security-policy', WEB_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('vary', 'Accept-Encoding');
    if (gzip) void reply.header('content-encoding', 'gzip');
    return reply.send(gzip ? served.gzip : served.body);
  };
  const notFound = (reply: FastifyReply) =>
    reply.code(404).send({ code: -1020, msg: 'Unsupported operation: this path does not exist.' });

  for (const page of build.pages)
    fastify.get(page.path, (request, reply) => send(request, reply, files.get(page.path)!));
  fastify.get('/admin', (_request, reply) => reply.redirect('/admin/', 301));
  fastify.get('/assets/*', (request, reply) => {
    const served = files.get(request.url.split('?')[0] ?? '');
    return served ? send(request, reply, served) : notFound(reply);
  });
}
