import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DemoUser } from './demo-user';

/** Loopback as Fastify reports the client (after the trusted proxies' X-Forwarded-For). */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * `GET /web/v1/demo-key`: the demo user's key and secret, for the page's "Use demo account"
 * button. Registered only by the embedded default, which keeps the demo user in DATA_DIR; it
 * answers only a client on this machine (a request forwarded by a trusted proxy counts as its
 * original client), and every other case is refused, so no secret is ever served to the network.
 */
export function registerDemoKeyRoute(
  fastify: FastifyInstance,
  options: { dataDir: string; embeddedDefault: boolean },
): void {
  fastify.get('/web/v1/demo-key', (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const path = join(options.dataDir, 'demo.json');
    if (!options.embeddedDefault || !isLoopback(request.ip)) {
      return reply.code(403).send({
        code: -2015,
        msg: 'The demo account is offered only to a browser on the machine that runs the embedded default.',
      });
    }
    if (!existsSync(path))
      return reply.code(503).send({ code: -1016, msg: 'The demo account is not created yet; try again shortly.' });
    const demo = JSON.parse(readFileSync(path, 'utf8')) as DemoUser;
    return reply.send({ apiKey: demo.apiKey, secretKey: demo.secretKey, accountId: demo.accountId });
  });
}
