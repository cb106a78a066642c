import { readFileSync } from 'node:fs';
import { Markets } from '@exchange/contracts';
import { RequestParams } from '@exchange/platform';
import { MarketFold, marketSymbolsOf } from '../domain';
import { buildBrokerInfo } from '../public/broker-info';
import { QuoteParams, v2SymbolIndex } from './quote-params';

// The shipped file lists BTC-SWAP-USDT and ETH-SWAP-USDT: market data folds them, but every spot
// path answers for them exactly as for any unknown symbol, and contract paths so for spot symbols.
const markets = Markets.fromJson(JSON.parse(readFileSync('config/markets.json', 'utf8')));
const fold = new MarketFold(marketSymbolsOf(markets), () => 0);

function paramsFor(query: string): QuoteParams {
  return new QuoteParams(RequestParams.fromUrl(`/openapi/quote/v1/depth?${query}`), fold, v2SymbolIndex(markets));
}

describe('contract symbols on spot market-data paths', () => {
  it.each(['BTC-SWAP-USDT', 'ETH-SWAP-USDT'])('answers -1121 for %s on the openapi and v2 families', (symbol) => {
    expect(() => paramsFor(`symbol=${symbol}`).symbol()).toThrow(expect.objectContaining({ code: -1121 }));
    expect(() => paramsFor(`symbol=${symbol.toLowerCase()}`).v2Symbol()).toThrow(
      expect.objectContaining({ code: -1121 }),
    );
    expect(paramsFor('symbol=BTCUSDT').symbol().symbol).toBe('BTCUSDT');
    expect(paramsFor(`symbol=${symbol}`).symbol('contract').symbol).toBe(symbol);
  });

  it.each(['BTCUSDT', 'ETHUSDT', 'ETHBTC'])('answers -1121 for spot symbol %s on contract paths', (symbol) => {
    expect(() => paramsFor(`symbol=${symbol}`).symbol('contract')).toThrow(expect.objectContaining({ code: -1121 }));
    expect(() => paramsFor(`symbol=${symbol}`).optionalSymbol('contract')).toThrow(
      expect.objectContaining({ code: -1121 }),
    );
  });

  it('lists spot symbols and contracts each in its own brokerInfo list', () => {
    const info = buildBrokerInfo(markets, {
      rateLimits: [],
      serverTime: 0,
      statusOf: () => undefined,
      exchangeId: '301',
    });
    expect(info.symbols?.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'ETHBTC']);
    expect(info.contracts?.map((c) => c.symbol)).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
  });
});
