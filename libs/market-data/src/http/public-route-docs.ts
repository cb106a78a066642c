import { openApiOperation } from '@exchange/platform';
import { publicRoutes } from './public-routes';

/** The OpenAPI paths of the public market routes (plain Fastify routes Nest's scanner cannot see). */
export function publicRouteDocs(): Record<string, { get: Record<string, unknown> }> {
  const paths: Record<string, { get: Record<string, unknown> }> = {};
  for (const route of publicRoutes) {
    const operationId = `MarketData_${route.path.replace(/^\//, '').replace(/[/-]/g, '_')}`;
    paths[route.path] = { get: openApiOperation(route.doc, route.tag, operationId) };
  }
  return paths;
}

/** The public stream's handshake, described where HTTP clients look first; frames are in README.md. */
export function publicStreamDoc(): Record<string, { get: Record<string, unknown> }> {
  return {
    '/openapi/quote/ws/v1': {
      get: {
        operationId: 'MarketData_public_stream',
        summary: 'Public market streams (WebSocket upgrade)',
        description: [
          'Send `{"symbol": "BTCUSDT[,ETHUSDT…]", "topic": <topic>, "event": "sub" | "cancel" | "cancel_all"}`.',
          'Topics: `realtimes` (24 h ticker), `trade`, `kline_<interval>`, `depth` (top 40 at each 300 ms event-time cut), `diffDepth` (book changes; `U`/`u` first and last update id, chaining onto the REST depth `lastUpdateId`).',
          'Frames: `{"symbol", "symbolName", "topic", "data": [...], "f": <true for the first frame of a subscription: the current state>, "sendTime"}`.',
          '`{"ping": ts}` is answered `{"pong": ts}`; the server pings every 30 s and drops a socket that missed a pong, and closes sockets at 24 h.',
          'Bad messages are answered `{code, msg}` (-1100 not JSON, -1102 missing field, -1120 bad kline interval, -1121 unknown symbol, -1130 bad topic or event).',
        ].join('\n\n'),
        parameters: [],
        responses: { 101: { description: 'Switching protocols: the WebSocket is open.' } },
        tags: ['public: market streams'],
      },
    },
  };
}
