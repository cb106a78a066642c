import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import type { Metrics } from './metrics';

export const METRICS_PATH = '/metrics';

export interface MetricsServer {
  /** http://<host>:<port> */
  url: string;
  close(): Promise<void>;
}

/**
 * Prometheus metrics on a port of their own. They name the host and the process and show how
 * loaded each part is, so they are not served on the public API port, where anyone could read
 * them; the edge proxy never routes to this port and scrapers reach it inside the cluster.
 */
export async function startMetricsServer(metrics: Metrics, port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer({ headersTimeout: 10_000, requestTimeout: 10_000 }, (request, response) => {
    if (request.method === 'GET' && (request.url ?? '').split('?')[0] === METRICS_PATH) {
      metrics.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        () => respond(response, ApiError.internal()),
      );
      return;
    }
    respond(
      response,
      new ApiError(ErrorCode.UNSUPPORTED_OPERATION, 'Unsupported operation: this port serves GET /metrics only.'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost === '0.0.0.0' || shownHost === '[::]' ? '127.0.0.1' : shownHost}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function respond(response: ServerResponse, error: ApiError): void {
  response.writeHead(error.httpStatus, { 'content-type': 'application/json' }).end(JSON.stringify(error.toBody()));
}
