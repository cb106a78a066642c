import type { OrderEvent } from '@exchange/contracts';
import type { IncomingRecord } from '@exchange/messaging';
import { MarketFold } from '../domain/market-fold';
import { marketStateHash } from '../domain/market-state-hash';
import { onePartition, OrderEventFactory, testSymbols } from '../testing/order-event-fixtures';
import { parseOrderEvent } from './order-event.parser';

const t0 = Date.UTC(2026, 0, 14, 10, 0, 0);

function session(): OrderEvent[] {
  const f = new OrderEventFactory();
  return [
    f.book(
      'BTCUSDT',
      t0,
      [
        ['100', '1'],
        ['99', '2'],
      ],
      [['101', '1']],
    ),
    f.trade('BTCUSDT', t0 + 10, '101', '0.5'),
    f.book('BTCUSDT', t0 + 10, [], [['101', '0.5']]),
    f.trade('ETHBTC', t0 + 59_990, '0.05', '2', 'SELL'),
    f.tick('ETHBTC', t0 + 60_000),
  ];
}

/** The same event as an engine before v2 wrote it: v1, with the command id, owners and quote quantity. */
function asV1Record(event: OrderEvent, offset: number): IncomingRecord {
  const commandId = event.id;
  let v1: object = event;
  if (event.type === 'BookChanged') {
    const { symbol, ...levels } = event.payload;
    v1 = { ...event, v: 1, payload: { symbol, commandId, ...levels } };
  }
  if (event.type === 'TradeExecuted') {
    const p = event.payload;
    const owners = {
      takerClientOrderId: 't',
      makerClientOrderId: 'm',
      takerAccountId: '2',
      makerAccountId: '1',
      takerUserId: '2',
      makerUserId: '1',
      takerSide: p.isBuyerMaker ? 'SELL' : 'BUY',
    };
    v1 = { ...event, v: 1, payload: { ...p, commandId, quoteQty: '1', ...owners, takerRemainingQuote: '0' } };
  }
  return {
    topic: 'order.events',
    partition: 0,
    offset,
    key: event.payload.symbol,
    value: JSON.stringify(v1),
    headers: {},
    timestamp: event.ts,
  };
}

function foldOf(events: readonly OrderEvent[]): MarketFold {
  const fold = new MarketFold(testSymbols, onePartition);
  for (const e of events) fold.apply(0, e);
  return fold;
}

describe('market-data reads order.events written before v2', () => {
  it('upcasts v1 records to the v2 events the engine writes now, and folds them to the same state', () => {
    const v2 = session();
    const read = v2.map((e, i) => parseOrderEvent(asV1Record(e, i)));
    expect(read).toEqual(v2);
    expect(marketStateHash(foldOf(read as OrderEvent[]))).toBe(marketStateHash(foldOf(v2)));
  });
});
