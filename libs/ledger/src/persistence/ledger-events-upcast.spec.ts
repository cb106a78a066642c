import {
  type LedgerCommand,
  type LedgerJournalEvent,
  type LedgerOrderRecord,
  type LedgerTradingEventV1,
  parseJournalRecord,
  parseLedgerEvent,
} from '@exchange/contracts';
import { decide, type TradingContext } from '../domain/decide';
import { evolve, initialLedgerState } from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { tradeFlows } from '../domain/trade-flows';
import { projectionRows } from './ledger-projection';
import { assets, btcusdt } from '../domain/spot-market.fixtures';

const T0 = 1_700_000_000_000;
const ALICE = { userId: '100', accountId: '1001' };
const BOB = { userId: '200', accountId: '2001' };
const trading = { symbol: 'BTCUSDT' };

let ids = 0;
const cmd = (type: LedgerCommand['type'], payload: Record<string, unknown>, ts = T0): LedgerCommand =>
  ({ type, v: type === 'ApplyOrderOutcome' ? 2 : 1, id: `u${++ids}`, ts, payload }) as LedgerCommand;

/** A maker rests, is filled in two trades with fees, a taker fills and ends FILLED, and a cancel ends another order. */
const commands: LedgerCommand[] = [
  cmd('CreateUser', { userId: '100', name: 'alice', accountIds: ['1001', '1002', '1003'] }),
  cmd('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] }),
  cmd('CreditDeposit', { ...ALICE, depositId: '1', asset: 'USDT', amount: '10000' }),
  cmd('CreditDeposit', { ...BOB, depositId: '2', asset: 'BTC', amount: '1' }),
  cmd('PlaceOrder', {
    ...BOB,
    ...trading,
    orderId: '7',
    clientOrderId: 'c7',
    side: 'SELL',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '29500',
    quantity: '0.5',
    marketsVersion: 1,
  }),
  cmd(
    'ApplyOrderOutcome',
    { ...BOB, ...trading, orderId: '7', side: 'SELL', outcome: 'RESTED', remainingQty: '0.5' },
    T0 + 1,
  ),
  cmd(
    'PlaceOrder',
    {
      ...ALICE,
      ...trading,
      orderId: '8',
      clientOrderId: 'c8',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '30000',
      quantity: '0.2',
      marketsVersion: 1,
    },
    T0 + 2,
  ),
  cmd(
    'SettleTradeLeg',
    {
      ...ALICE,
      ...trading,
      orderId: '8',
      side: 'BUY',
      tradeId: '1',
      price: '29500',
      qty: '0.2',
      quoteQty: '5900',
      isMaker: false,
    },
    T0 + 3,
  ),
  cmd(
    'SettleTradeLeg',
    {
      ...BOB,
      ...trading,
      orderId: '7',
      side: 'SELL',
      tradeId: '1',
      price: '29500',
      qty: '0.2',
      quoteQty: '5900',
      isMaker: true,
    },
    T0 + 3,
  ),
  cmd('ApplyOrderOutcome', { ...ALICE, ...trading, orderId: '8', side: 'BUY', outcome: 'FILLED' }, T0 + 4),
  cmd('RequestCancel', { ...BOB, orderId: '7' }, T0 + 5),
  cmd(
    'ApplyOrderOutcome',
    { ...BOB, ...trading, orderId: '7', side: 'SELL', outcome: 'CANCELED', reason: 'USER', remainingQty: '0.3' },
    T0 + 6,
  ),
];

/** The journal as the ledger writes it now (v2), and as it wrote it before (v1: the whole order record, and the flows, again). */
function journals(): { v2: LedgerJournalEvent[]; v1: (LedgerJournalEvent | LedgerTradingEventV1)[] } {
  const state = initialLedgerState();
  const v2: LedgerJournalEvent[] = [];
  const v1: (LedgerJournalEvent | LedgerTradingEventV1)[] = [];
  commands.forEach((command, offset) => {
    const ctx: TradingContext = {
      now: command.ts,
      flowId: (k) => String(offset * 16 + k + 1),
      asset: (n) => assets[n],
      symbol: () => btcusdt,
      feeAccountId: '1',
    };
    for (const event of decide(command, state, ctx)) {
      evolve(state, event);
      v2.push(event);
      v1.push(asV1(event, state.orders.get((event.payload as { order?: { orderId: string } }).order?.orderId ?? '')));
    }
  });
  return { v2, v1 };
}

function asV1(
  event: LedgerJournalEvent,
  record: LedgerOrderRecord | undefined,
): LedgerJournalEvent | LedgerTradingEventV1 {
  const order = { ...record! };
  switch (event.type) {
    case 'OrderPlaced':
      return { ...event, v: 1, payload: { ...event.payload, order, flows: [] } };
    case 'OrderOutcomeApplied':
      return { ...event, v: 1, payload: { ...event.payload, order } };
    case 'TradeSettled': {
      const { firstFlowId: _first, ...payload } = event.payload;
      return { ...event, v: 1, payload: { ...payload, order, flows: tradeFlows(event) } };
    }
    default:
      return event;
  }
}

describe('ledger events: v1 spot order events upcast on read', () => {
  const { v2, v1 } = journals();
  const written = v1.map((e) => JSON.stringify(e));

  it('writes v2 for the order events and they are smaller than v1', () => {
    expect(v2.filter((e) => e.v === 2).map((e) => e.type)).toEqual([
      'OrderPlaced',
      'OrderOutcomeApplied',
      'OrderPlaced',
      'TradeSettled',
      'TradeSettled',
      'OrderOutcomeApplied',
      'OrderOutcomeApplied',
    ]);
    const bytes = (events: unknown[]) => events.reduce<number>((sum, e) => sum + JSON.stringify(e).length, 0);
    expect(bytes(v2)).toBeLessThan(bytes(v1) * 0.8);
  });

  it('folds a v1 journal to the same ledger state as the v2 one (through the schema and the journal reader alike)', () => {
    const fold = (events: LedgerJournalEvent[]) =>
      ledgerStateHash(events.reduce((state, e) => evolve(state, e), initialLedgerState()));
    expect(fold(written.map((value) => parseLedgerEvent(value)!))).toBe(fold(v2));
    expect(fold(written.map((value) => parseJournalRecord(value)!))).toBe(fold(v2));
  });

  it('projects a v1 journal to the same rows as the v2 one, flows included', () => {
    const rows = (events: LedgerJournalEvent[]) => {
      const r = projectionRows(events, () => 0);
      return {
        balances: [...r.balances.values()],
        flows: r.flows,
        orders: [...r.orders.values()],
        changes: [...r.orderChanges.values()],
        trades: r.trades,
      };
    };
    const upcast = written.map((value) => parseLedgerEvent(value)!);
    expect(rows(upcast)).toEqual(rows(v2));
    // One batch per event: every change after the placement is a change of the row, as a later batch writes it.
    expect(upcast.map((e) => rows([e]))).toEqual(v2.map((e) => rows([e])));
  });

  it('still refuses a v1 record that is not one', () => {
    const placed = JSON.parse(written.find((value) => value.includes('"OrderPlaced"'))!) as {
      payload: { order: object };
    };
    expect(
      parseLedgerEvent(
        JSON.stringify({
          ...placed,
          payload: { ...placed.payload, order: { ...placed.payload.order, status: 'LOST' } },
        }),
      ),
    ).toBeUndefined();
  });
});
