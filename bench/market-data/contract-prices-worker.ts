/**
 * One measured run of market data's fold, alone (`fold`) or with the contract prices decider's
 * per-event step (`prices`: inputs from what the event changed, the prices fold, the skip of a
 * clock within the second), over the same generated order.events: book changes and trades of the
 * shipped spot symbols and contracts, 1 ms of event time apart (so a second passes every 1,000
 * events). Publishing is left out (an append per decision, at most a few per second). The first
 * `warm` events are not timed. Prints {nsPerEvent, outputs} as its last line.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Markets, type OrderEvent } from '@exchange/contracts';
import {
  advanceOnEvent,
  contractPriceConfigOf,
  initialContractPriceState,
  type MarketChange,
  MarketFold,
  marketSymbolsOf,
} from '@exchange/market-data';
import { OrderEventFactory } from '../../libs/market-data/src/testing/order-event-fixtures';

const [mode, warm, timed] = [process.argv[2] as 'fold' | 'prices', Number(process.argv[3]), Number(process.argv[4])];
const markets = Markets.fromJson(JSON.parse(readFileSync('config/markets.json', 'utf8')));
const symbols = marketSymbolsOf(markets);

/** A seeded stream: each symbol's book moves around its own mid, a trade every fourth event. */
function events(count: number): OrderEvent[] {
  const factory = new OrderEventFactory();
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const mids: Record<string, number> = {
    BTCUSDT: 50_000,
    ETHUSDT: 3000,
    ETHBTC: 0.06,
    'BTC-SWAP-USDT': 50_020,
    'ETH-SWAP-USDT': 3001,
  };
  const out: OrderEvent[] = [];
  for (let i = 0; i < count; i++) {
    const config = symbols[i % symbols.length]!;
    const tick = Number(config.tickSize);
    const price = (mids[config.symbol]! + Math.floor(random() * 20 - 10) * tick).toFixed(
      config.tickSize.split('.')[1]?.length ?? 0,
    );
    const qty = config.stepSize;
    const ts = 1_700_000_000_000 + i;
    out.push(
      i % 4 === 3
        ? factory.trade(config.symbol, ts, price, qty)
        : factory.book(config.symbol, ts, random() < 0.5 ? [[price, qty]] : [], random() < 0.5 ? [] : [[price, qty]]),
    );
  }
  return out;
}

const stream = events(warm + timed);
const fold = new MarketFold(symbols, () => 0);
const state = initialContractPriceState(markets.contracts.map(contractPriceConfigOf));
const indexSymbols = new Set(markets.contracts.map((c) => c.index));
const last = new Map<string, string>();
let outputs = 0;
const step = (event: OrderEvent) => {
  const changes: MarketChange[] = [];
  fold.apply(0, event, changes);
  if (mode === 'prices') outputs += advanceOnEvent(state, last, fold, 0, changes, indexSymbols)?.length ?? 0;
};
for (let i = 0; i < warm; i++) step(stream[i]!);
const began = performance.now();
for (let i = warm; i < stream.length; i++) step(stream[i]!);
const elapsed = performance.now() - began;
console.log(JSON.stringify({ nsPerEvent: (elapsed * 1e6) / timed, outputs }));
