import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExchangeProcess, freePortBase, spawnExchange, waitUntilServing } from './exchange-process';
import { waitFor } from './wait-for';

export interface WebExchange {
  exchange: ExchangeProcess;
  baseUrl: string;
  adminToken: string;
  stop(): Promise<void>;
}

/** `npm start` as a newcomer runs it (which builds the pages), on a fresh DATA_DIR and its own ports. */
export async function startWebExchange(): Promise<WebExchange> {
  const dataDir = mkdtempSync(join(tmpdir(), 'exchange-web-'));
  const port = freePortBase();
  const adminToken = `web-test-token-${port}-0123456789abcdef`;
  const exchange = spawnExchange({
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(port + 1),
    ADMIN_TOKEN: adminToken,
  });
  await waitUntilServing(exchange, 90_000);
  await waitFor(() => exchange.output().includes('demo secret key'), 'the demo user', 60_000, 100);
  return {
    exchange,
    baseUrl: exchange.baseUrl,
    adminToken,
    stop: async () => {
      exchange.child.kill('SIGTERM');
      await exchange.exited();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
