import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type OrderEvent,
  orderEventSchema,
  type SettlementCommand,
  settlementCommandSchema,
  Topics,
} from '@exchange/contracts';
import { waitFor } from '../../../../test/support/wait-for';
import {
  allCommandsCommitted,
  publishCommands,
  readMessages,
  readTopic,
  type RunningEngine,
  startEngine,
} from '../testing/engine-harness';
import { cancel, submit } from '../testing/order-commands.fixtures';

const alice = { accountId: '11', userId: '1' };
const bob = { accountId: '21', userId: '2' };

describe('matching engine pipeline: order.commands → order.events + ledger settlement', () => {
  let engine: RunningEngine;

  beforeEach(async () => {
    engine = await startEngine(mkdtempSync(join(tmpdir(), 'matching-engine-')));
  });

  afterEach(async () => {
    await engine.close();
  });

  async function settle(): Promise<{ events: OrderEvent[]; settlements: SettlementCommand[] }> {
    await waitFor(() => allCommandsCommitted(engine.log), 'every command committed', 10_000);
    const events = (await readMessages<unknown>(engine.log, Topics.orderEvents.name)).map((e) =>
      orderEventSchema.parse(e),
    );
    const settlements = (await readMessages<unknown>(engine.log, Topics.ledgerCommands.name)).map((s) =>
      settlementCommandSchema.parse(s),
    );
    return { events, settlements };
  }

  it('matches orders and writes valid events and settlement records with exact amounts', async () => {
    await publishCommands(engine.log, [
      submit('c1', {
        symbol: 'BTCUSDT',
        orderId: '101',
        ...alice,
        side: 'SELL',
        type: 'LIMIT',
        price: '30000.10',
        quantity: '0.5',
      }),
      submit('c2', {
        symbol: 'BTCUSDT',
        orderId: '102',
        ...alice,
        side: 'SELL',
        type: 'LIMIT',
        price: '30000.20',
        quantity: '0.25',
      }),
      submit('c3', {
        symbol: 'BTCUSDT',
        orderId: '201',
        ...bob,
        side: 'BUY',
        type: 'LIMIT',
        price: '30000.20',
        quantity: '0.6',
      }),
      // 1500.01500001 is 15000150000 notional units of 0.0000001 and 0.00000001 of dust.
      submit('c4', {
        symbol: 'BTCUSDT',
        orderId: '202',
        ...bob,
        side: 'BUY',
        type: 'MARKET',
        quoteAmount: '1500.01500001',
      }),
    ]);
    const { events, settlements } = await settle();

    expect(events.map((e) => `${e.id} ${e.type}`)).toEqual([
      'c1:0 OrderAccepted',
      'c1:1 OrderRested',
      'c1:2 BookChanged',
      'c2:0 OrderAccepted',
      'c2:1 OrderRested',
      'c2:2 BookChanged',
      'c3:0 OrderAccepted',
      'c3:1 TradeExecuted',
      'c3:2 TradeExecuted',
      'c3:3 OrderFilled',
      'c3:4 BookChanged',
      'c4:0 OrderAccepted',
      'c4:1 TradeExecuted',
      'c4:2 OrderFilled',
      'c4:3 BookChanged',
    ]);
    const trades = events.filter((e) => e.type === 'TradeExecuted').map((e) => e.payload);
    expect(
      trades.map((t) => [t.tradeId, t.price, t.qty, t.makerOrderId, t.makerRemainingQty, t.takerRemainingQuote]),
    ).toEqual([
      ['1', '30000.1', '0.5', '101', '0', undefined],
      ['2', '30000.2', '0.1', '102', '0.15', undefined],
      ['3', '30000.2', '0.05', '102', '0.1', '0.00500001'],
    ]);
    // v2: a trade names the orders; their owners and terms travel once, in OrderAccepted.
    expect(trades[0]).toEqual({
      symbol: 'BTCUSDT',
      tradeId: '1',
      price: '30000.1',
      qty: '0.5',
      takerOrderId: '201',
      makerOrderId: '101',
      isBuyerMaker: false,
      makerRemainingQty: '0',
      takerRemainingQty: '0.1',
    });
    expect(events.find((e) => e.id === 'c1:0')?.payload).toEqual({
      symbol: 'BTCUSDT',
      orderId: '101',
      clientOrderId: 'c-101',
      accountId: '11',
      userId: '1',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: '30000.1',
      quantity: '0.5',
    });
    expect(events.find((e) => e.id === 'c1:1')?.payload).toEqual({
      symbol: 'BTCUSDT',
      orderId: '101',
      restingQty: '0.5',
    });
    expect(events.every((e) => e.v === (e.type === 'OrderRejected' || e.type === 'CancelRejected' ? 1 : 2))).toBe(true);
    const marketFilled = events.find((e) => e.id === 'c4:2');
    expect(marketFilled?.payload).toMatchObject({ orderId: '202', unspentQuote: '0.00500001' });
    const book = events.filter((e) => e.type === 'BookChanged').map((e) => e.payload);
    expect(book.map((b) => [b.updateIdFirst, b.updateIdLast, b.bids, b.asks])).toEqual([
      [1, 1, [], [['30000.1', '0.5']]],
      [2, 2, [], [['30000.2', '0.25']]],
      [
        3,
        4,
        [],
        [
          ['30000.1', '0'],
          ['30000.2', '0.15'],
        ],
      ],
      [5, 5, [], [['30000.2', '0.1']]],
    ]);

    const legs = settlements.flatMap((s) => (s.type === 'SettleTradeLeg' ? [s.payload] : []));
    // Legs are keyed by user: user 2's taker legs and user 1's maker legs sit in their own partitions.
    expect(legs.map((l) => [l.tradeId, l.orderId, l.userId, l.side, l.qty, l.quoteQty, l.isMaker])).toEqual([
      ['1', '201', '2', 'BUY', '0.5', '15000.05', false],
      ['2', '201', '2', 'BUY', '0.1', '3000.02', false],
      ['3', '202', '2', 'BUY', '0.05', '1500.01', false],
      ['1', '101', '1', 'SELL', '0.5', '15000.05', true],
      ['2', '102', '1', 'SELL', '0.1', '3000.02', true],
      ['3', '102', '1', 'SELL', '0.05', '1500.01', true],
    ]);
    const outcomes = settlements.flatMap((s) =>
      s.type === 'ApplyOrderOutcome'
        ? [
            `${s.payload.orderId} ${s.payload.outcome} ${s.payload.remainingQty ?? '0'} ${s.payload.unspentQuote ?? '0'}`,
          ]
        : [],
    );
    // One outcome per order per command: no ACCEPTED, which the ledger would not act on.
    expect(outcomes.sort()).toEqual([
      '101 FILLED 0 0',
      '101 RESTED 0.5 0',
      '102 RESTED 0.25 0',
      '201 FILLED 0 0',
      '202 FILLED 0 0.00500001',
    ]);

    // Every settlement record sits in its user's ledger partition; headers add only the message id
    // (type and causation are in the value: the id's prefix is the command's id).
    const records = await readTopic(engine.log, Topics.ledgerCommands.name);
    for (const r of records) {
      const message = JSON.parse(r.value) as SettlementCommand;
      expect(r.key).toBe(message.payload.userId);
      expect(r.headers).toEqual({ 'x-message-id': message.id });
    }
  });

  it('turns commands that fail conversion into rejections and keeps going', async () => {
    await engine.log.publish([{ topic: Topics.orderCommands.name, key: 'BTCUSDT', value: '{"not": "a command"' }]);
    await publishCommands(engine.log, [
      submit('r1', {
        symbol: 'BTCUSDT',
        orderId: '301',
        ...alice,
        side: 'BUY',
        type: 'LIMIT',
        price: '30000.005',
        quantity: '0.5',
      }),
      submit('r2', {
        symbol: 'BTCUSDT',
        orderId: '302',
        ...alice,
        side: 'BUY',
        type: 'LIMIT',
        price: '30000',
        quantity: '0.000001',
      }),
      submit('r3', {
        symbol: 'BTCUSDT',
        orderId: '303',
        ...alice,
        side: 'BUY',
        type: 'MARKET',
        quoteAmount: '0.00000001',
      }),
      submit('r4', {
        symbol: 'DOGEUSDT',
        orderId: '304',
        ...alice,
        side: 'BUY',
        type: 'LIMIT',
        price: '1',
        quantity: '1',
      }),
      submit('r5', {
        symbol: 'BTCUSDT',
        orderId: '305',
        ...alice,
        side: 'BUY',
        type: 'MARKET',
        price: '30000',
        quantity: '1',
      }),
      submit('r6', {
        symbol: 'BTCUSDT',
        orderId: '306',
        ...alice,
        side: 'BUY',
        type: 'LIMIT',
        price: '30000',
        quantity: '0.5',
      }),
      cancel('r7', { symbol: 'BTCUSDT', orderId: '306', ...bob }),
      cancel('r8', { symbol: 'BTCUSDT', orderId: '306', ...alice }),
    ]);
    const { events, settlements } = await settle();

    // DOGEUSDT hashes to its own partition, so order across symbols is not defined: sort.
    const rejections = events
      .filter((e) => e.type === 'OrderRejected')
      .map((e) => `${e.payload.orderId} ${e.payload.reason}`);
    expect(rejections.sort()).toEqual([
      '301 INVALID_PRICE',
      '302 INVALID_QUANTITY',
      '303 INVALID_QUOTE_AMOUNT',
      '304 UNKNOWN_SYMBOL',
      '305 INVALID_ORDER',
    ]);
    expect(events.filter((e) => e.id.startsWith('r7') || e.id.startsWith('r8')).map((e) => e.type)).toEqual([
      'CancelRejected',
      'OrderCanceled',
      'BookChanged',
    ]);
    expect(events.find((e) => e.id === 'r8:0')?.payload).toEqual({
      symbol: 'BTCUSDT',
      orderId: '306',
      reason: 'USER',
      remainingQty: '0.5',
    });
    const released = settlements.filter(
      (s) => s.type === 'ApplyOrderOutcome' && (s.payload.outcome === 'REJECTED' || s.payload.outcome === 'CANCELED'),
    );
    expect(released.map((s) => s.payload.orderId).sort()).toEqual(['301', '302', '303', '304', '305', '306']);
    expect(engine.logs.some((l) => l.msg === 'matching-engine: skipped a record' && l.problem === 'not JSON')).toBe(
      true,
    );
  });

  it('applies a command published twice once', async () => {
    const order = submit('d1', {
      symbol: 'ETHBTC',
      orderId: '401',
      ...alice,
      side: 'SELL',
      type: 'LIMIT',
      price: '0.05',
      quantity: '2',
    });
    const taker = submit('d2', {
      symbol: 'ETHBTC',
      orderId: '402',
      ...bob,
      side: 'BUY',
      type: 'LIMIT',
      price: '0.05',
      quantity: '1',
    });
    await publishCommands(engine.log, [order, order, taker]);
    await waitFor(() => allCommandsCommitted(engine.log), 'first commands committed', 10_000);
    await publishCommands(engine.log, [taker]);
    const { events, settlements } = await settle();

    expect(events.map((e) => e.id)).toEqual(['d1:0', 'd1:1', 'd1:2', 'd2:0', 'd2:1', 'd2:2', 'd2:3']);
    expect(settlements.filter((s) => s.type === 'SettleTradeLeg')).toHaveLength(2);
    expect(engine.engines.get('ETHBTC')!.state().engine.asks).toEqual([[401, 11, 5000, 1000]]);
  });
});
