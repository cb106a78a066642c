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
