import { currentLedgerEvent, type LedgerJournalEvent, type LedgerOrderRecord } from '@exchange/contracts';
import { type AccountStreamState, nextEventTime, streamLedgerEvent } from './account-stream';
import { rejectCodeOf } from './execution-report';

const precisionOf = (asset: string): number => (asset === 'USDT' ? 6 : 8);
const start: AccountStreamState = {
  accountId: '100',
  flags: { canTrade: true, canWithdraw: true, canDeposit: true },
  lastSeq: 10,
  lastE: 0,
};

const order = (over: Partial<LedgerOrderRecord> = {}): LedgerOrderRecord => ({
  orderId: '5001',
  clientOrderId: 'c1',
  accountId: '100',
  userId: '7',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: '60000',
  origQty: '1',
  origQuoteOrderQty: '0',
  executedQty: '0',
  cummulativeQuoteQty: '0',
  status: 'NEW',
  isWorking: false,
  time: 1000,
  updateTime: 1000,
  reservedAsset: 'USDT',
  reservedAmount: '60000',
  reservationLeft: '60000',
  marketsVersion: 1,
  ...over,
});

let nextSeq = 11;
function event(type: string, payload: Record<string, unknown>, ts = 5000, seq = nextSeq++): LedgerJournalEvent {
  return {
    type,
    v: 1,
    id: `cmd-${seq}:0`,
    ts,
    payload: { userId: '7', seq, commandId: `cmd-${seq}`, ...payload },
  } as unknown as LedgerJournalEvent;
}
/** The event as the feed reads it (these fixtures are v1: the whole record), with its order as SpotOrderMemory gives it. */
function streamed(state: AccountStreamState, e: LedgerJournalEvent) {
  const order = (e.payload as { order?: LedgerOrderRecord }).order;
  return streamLedgerEvent(state, currentLedgerEvent(e), precisionOf, undefined, order);
}
const trade = (qty: string) => ({
  tradeId: '900',
  orderId: '5001',
  accountId: '100',
  symbol: 'BTCUSDT',
  price: '60000',
  qty,
  quoteQty: '0',
  commission: '0.001',
  commissionAsset: 'BTC',
  time: 4999,
  isBuyer: true,
  isMaker: false,
});
const usdt = (free: string, locked: string, accountId = '100') => ({ accountId, asset: 'USDT', free, locked });

describe('one ledger event on one account stream', () => {
  it('reports an order placed as NEW, then the reservation, under one E', () => {
    const step = streamed(
      start,
      event('OrderPlaced', { order: order(), flows: [], balances: [usdt('40000', '60000')] }),
    );
    expect(step.frames.map((f) => f.e)).toEqual(['executionReport', 'outboundAccountInfo']);
    expect(step.frames[0]).toMatchObject({
      E: 5000,
      x: 'NEW',
      X: 'NEW',
      i: '5001',
      c: 'c1',
      z: '0',
      t: '-1',
      r: 0,
      C: '',
      N: null,
    });
    expect(step.frames[1]).toEqual({
      e: 'outboundAccountInfo',
      E: 5000,
      T: true,
      W: true,
      D: true,
      B: [{ a: 'USDT', f: '40000.000000', l: '60000.000000' }],
    });
    expect(step.state).toMatchObject({ lastE: 5000, lastSeq: nextSeq - 1 });
  });

  it('ignores an event it has passed (a redelivery, or one the tables held when the stream began)', () => {
    const step = streamed(start, event('OrderPlaced', { order: order(), flows: [], balances: [] }, 5000, 10));
    expect(step).toEqual({ state: start, frames: [] });
  });

  it('keeps E strictly increasing when events share or go behind a time', () => {
    expect(nextEventTime(5000, 5000)).toBe(5001);
    expect(nextEventTime(5000, 4000)).toBe(5001);
    expect(nextEventTime(5000, 6000)).toBe(6000);
    const first = streamed(start, event('DepositCredited', { balances: [usdt('1', '0')] }, 7000));
    const second = streamed(first.state, event('DepositCredited', { balances: [usdt('2', '0')] }, 7000));
    expect([first.frames[0]!.E, second.frames[0]!.E]).toEqual([7000, 7001]);
  });

  it('reports the trade that fills an order as FILLED and nothing more for the FILLED outcome after it, but its released funds', () => {
    const filled = order({ executedQty: '1', cummulativeQuoteQty: '60000', status: 'PARTIALLY_FILLED' });
    const t = streamed(
      start,
      event('TradeSettled', {
        trade: trade('1'),
        order: filled,
        feeAccountId: '1',
        flows: [],
        balances: [usdt('40000', '0')],
      }),
    );
    expect(t.frames[0]).toMatchObject({
      x: 'FILLED',
      X: 'FILLED',
      l: '1',
      L: '60000',
      z: '1',
      Z: '60000',
      n: '0.001',
      N: 'BTC',
      t: '900',
      T: 4999,
      m: false,
    });
    const outcome = streamed(
      t.state,
      event('OrderOutcomeApplied', {
        outcome: 'FILLED',
        order: { ...filled, status: 'FILLED' },
        balances: [usdt('40100', '0')],
      }),
    );
    expect(outcome.frames.map((f) => f.e)).toEqual(['outboundAccountInfo']);
  });

  it('reports a partial fill with X from the record (a pending cancel stays pending)', () => {
    const step = streamed(
      start,
      event('TradeSettled', {
        trade: trade('0.4'),
        order: order({ executedQty: '0.4', status: 'PENDING_CANCEL' }),
        feeAccountId: '1',
        flows: [],
        balances: [],
      }),
    );
    expect(step.frames[0]).toMatchObject({ x: 'PARTIALLY_FILLED', X: 'PENDING_CANCEL', z: '0.4' });
  });

  it('learns the fill of a MARKET BUY by quote amount from the FILLED outcome', () => {
    const market = order({ type: 'MARKET', origQty: '0', price: '0', executedQty: '0.01', status: 'FILLED' });
    const step = streamed(start, event('OrderOutcomeApplied', { outcome: 'FILLED', order: market, balances: [] }));
    expect(step.frames[0]).toMatchObject({ x: 'FILLED', X: 'FILLED', l: '0', z: '0.01', t: '-1' });
  });

  it('reports cancels with C and rejections with their code; a resting order or a cancel request is no report', () => {
    const canceled = streamed(
      start,
      event('OrderOutcomeApplied', {
        outcome: 'CANCELED',
        reason: 'USER',
        order: order({ status: 'CANCELED' }),
        balances: [],
      }),
    );
    expect(canceled.frames[0]).toMatchObject({ x: 'CANCELED', C: 'c1', r: 0 });
    const rejected = streamed(
      start,
      event('OrderOutcomeApplied', {
        outcome: 'REJECTED',
        reason: 'LIMIT_MAKER_WOULD_TAKE',
        order: order({ status: 'REJECTED' }),
        balances: [],
      }),
    );
    expect(rejected.frames[0]).toMatchObject({ x: 'REJECTED', r: -2010, C: '' });
    expect(
      streamed(
        start,
        event('OrderOutcomeApplied', { outcome: 'RESTED', order: order({ isWorking: true }), balances: [] }),
      ).frames,
    ).toEqual([]);
    expect(
      streamed(start, event('OrderCancelRequested', { order: order({ status: 'PENDING_CANCEL' }) })).frames,
    ).toEqual([]);
    expect([rejectCodeOf('SYMBOL_NOT_TRADING'), rejectCodeOf('UNKNOWN_SYMBOL'), rejectCodeOf(undefined)]).toEqual([
      -1151, -1121, -2010,
    ]);
  });

  it('streams only this account: another account of the user, the fee account, and a rejected command give nothing', () => {
    const other = streamed(start, event('FundsTransferred', { balances: [usdt('5', '0', '101')] }));
    expect(other.frames).toEqual([]);
    expect(other.state.lastSeq).toBe(nextSeq - 1);
    const theirOrder = streamed(
      start,
      event('OrderPlaced', { order: order({ accountId: '101' }), flows: [], balances: [usdt('1', '1', '101')] }),
    );
    expect(theirOrder.frames).toEqual([]);
    expect(
      streamed(start, event('CommandRejected', { commandType: 'PlaceOrder', code: -1131, msg: 'no' })).frames,
    ).toEqual([]);
  });

  it('sends the new flags with no balances when the operator changes them, and renders any future event that carries balances', () => {
    const flags = streamed(
      start,
      event('AccountFlagsSet', { accountId: '100', canTrade: false, canWithdraw: true, canDeposit: true }),
    );
    expect(flags.frames).toEqual([{ e: 'outboundAccountInfo', E: 5000, T: false, W: true, D: true, B: [] }]);
    const hold = streamed(flags.state, event('WithdrawalHeld', { balances: [usdt('1.5', '2')] }, 9000));
    expect(hold.frames).toEqual([
      {
        e: 'outboundAccountInfo',
        E: 9000,
        T: false,
        W: true,
        D: true,
        B: [{ a: 'USDT', f: '1.500000', l: '2.000000' }],
      },
    ]);
  });
});
