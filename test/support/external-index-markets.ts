import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The shipped markets file with a contract's index fed by the operator (indexSource external), so a test moves it with POST /admin/v1/index-prices. */
export function externalIndexMarkets(symbol: string, index: string): string {
  const markets = JSON.parse(readFileSync('config/markets.json', 'utf8')) as { contracts: Record<string, unknown>[] };
  markets.contracts = markets.contracts.map((c) =>
    c.symbol === symbol ? { ...c, index, indexSource: 'external' } : c,
  );
  const file = join(mkdtempSync(join(tmpdir(), 'markets-')), 'markets.json');
  writeFileSync(file, JSON.stringify(markets));
  return file;
}
