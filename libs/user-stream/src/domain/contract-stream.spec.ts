import {
  type ContractBalanceAfter,
  type ContractJournalEvent,
  type ContractOrderRecord,
  isContractJournalEvent,
  type LedgerJournalEvent,
  type PositionAfter,
} from '@exchange/contracts';
import { type AccountStreamState, streamLedgerEvent } from './account-stream';
import { ContractOrderMemory, namedAccountsOf } from './contract-orders-seen';
import type { StreamFrame } from './stream-frames';

const precisionOf = (asset: string): number => (asset === 'USDT' ? 6 : 8);
const flags = { canTrade: true, canWithdraw: true, canDeposit: true };
/** The main token account 100's stream, carrying the user's main contracts account 300. */
const mainStream: AccountStreamState = {
  accountId: '100',
  flags,
  lastSeq: 10,
  lastE: 0,
  contracts: { accountId: '300', flags: { ...flags, canWithdraw: false } },
};
/** The contracts account's own stream (a key of that account). */
const contractStream: AccountStreamState = {
  accountId: '300',
  flags,
  lastSeq: 10,
  lastE: 0,
  contracts: { accountId: '300', flags },
};

const order = (over: Partial<ContractOrderRecord> = {}): ContractOrderRecord => ({
  orderId: '7001',
  clientOrderId: 'long-1',
  accountId: '300',
  userId: '7',
  symbol: 'BTC-SWAP-USDT',
  side: 'BUY_OPEN',
  price: '60000',
  quantity: '10',
  leverage: '10',
  executedQty: '0',
  marginLocked: '60.72',
  marginLeft: '60.72',
  status: 'NEW',
  time: 4000,
  marketsVersion: 1,
  orderType: 'LIMIT',
  ...over,
});
const position = (over: Partial<PositionAfter> = {}): PositionAfter => ({
  accountId: '300',
  symbol: 'BTC-SWAP-USDT',
  side: 'LONG',
  size: '0',
  available: '0',
  opening: '10',
  entryValue: '0',
  avgPrice: '0',
  margin: '0',
  realizedPnl: '0',
  leverage: '10',
  flp: '0',
  ...over,
});
const usdt = (free: string, locked: string, positionMargin: string, accountId = '300'): ContractBalanceAfter => ({
  accountId,
  free,
  locked,
  positionMargin,
});

let nextSeq = 11;
function event<T extends ContractJournalEvent['type']>(
  type: T,
  payload: Omit<Extract<ContractJournalEvent, { type: T }>['payload'], 'userId' | 'seq' | 'commandId'>,
  ts = 5000,
): ContractJournalEvent {
  const seq = nextSeq++;
  return {
    type,
    v: 1,
    id: `cmd-${seq}:0`,
    ts,
    payload: { userId: '7', seq, commandId: `cmd-${seq}`, ...payload },
  } as unknown as ContractJournalEvent;
}

/** A replica's fold: the order memory sees every event, the stream renders those past its sequence. */
function streamAll(
  start: AccountStreamState,
  events: LedgerJournalEvent[],
  memory = new ContractOrderMemory(),
): { state: AccountStreamState; frames: StreamFrame[] } {
  let state = start;
  const frames: StreamFrame[] = [];
  for (const e of events) {
    const contractOrder = isContractJournalEvent(e) ? memory.observe(e) : undefined;
    const step = streamLedgerEvent(state, e, precisionOf, contractOrder);
    state = step.state;
    frames.push(...step.frames);
  }
  return { state, frames };
}

const placed = () =>
  event('ContractOrderPlaced', { order: order(), balance: usdt('939.28', '60.72', '0'), position: position() });
const fill = (quantity: string, executedQty: string, status: 'PARTIALLY_FILLED' | 'FILLED', ts: number) =>
  event(
    'ContractOrderFilled',
    {
      tradeId: `t${executedQty}`,
      accountId: '300',
      symbol: 'BTC-SWAP-USDT',
      side: 'BUY_OPEN',
      price: '59990.5',
      quantity,
      isMaker: true,
      fee: '0.047992',
      feeToken: 'USDT',
      pnl: '0',
      uncovered: '0',
      order: { orderId: '7001', executedQty, marginLeft: status === 'FILLED' ? '0' : '36.432', status },
      position: position({
        size: executedQty,
        available: executedQty,
        opening: status === 'FILLED' ? '0' : '6',
        entryValue: '239.962',
        avgPrice: '59990.5',
        margin: '23.9962',
        flp: '54291.3',
      }),
      balance: usdt('939.526008', '36.432', '23.9962'),
      feeAccount: usdt('0.047992', '0', '0', '1'),
      flows: [],
    },
    ts,
  );

describe('contract events on a user stream', () => {
  it('reports a placed OPEN order with every key of spec 6.3, then the contracts USDT, under one E; the position shows nothing new', () => {
    const { frames, state } = streamAll(mainStream, [placed()]);
    expect(frames).toEqual([
      {
        e: 'contractExecutionReport',
        E: '5000',
        s: 'BTC-SWAP-USDT',
        c: 'long-1',
        S: 'BUY',
        o: 'LIMIT',
        f: 'GTC',
        q: '10',
        p: '60000',
        X: 'NEW',
        i: '7001',
        l: '0',
        z: '0',
        L: '0',
        n: '0',
        N: 'USDT',
        u: true,
        w: true,
        m: false,
        O: '4000',
        Z: '0',
        C: false,
        v: '10',
      },
      {
        e: 'outboundContractAccountInfo',
        E: 5000,
        T: true,
        W: false,
        D: true,
        B: [{ a: 'USDT', f: '939.280000', l: '60.720000' }],
      },
    ]);
    expect(state).toMatchObject({ lastE: 5000, lastSeq: nextSeq - 1 });
  });

  it('reports each fill with l, L, n, m and the cumulative z and Z, then the position with every key of spec 6.4, then f and l (locked plus position margin)', () => {
    const { frames } = streamAll(mainStream, [
      placed(),
      fill('4', '4', 'PARTIALLY_FILLED', 6000),
      fill('6', '10', 'FILLED', 6000),
    ]);
    const reports = frames.filter((f) => f.e === 'contractExecutionReport');
    expect(reports.map((r) => [r.X, r.l, r.L, r.z, r.Z, r.n, r.m, r.E])).toEqual([
      ['NEW', '0', '0', '0', '0', '0', false, '5000'],
      ['PARTIALLY_FILLED', '4', '59990.5', '4', '239962', '0.047992', true, '6000'],
      ['FILLED', '6', '59990.5', '10', '599905', '0.047992', true, '6001'],
    ]);
    expect(frames.slice(2, 5)).toEqual([
      reports[1],
      {
        e: 'outboundContractPositionInfo',
        E: '6000',
        A: '300',
        s: 'BTC-SWAP-USDT',
        S: 'LONG',
        p: '59990.5',
        P: '4',
        a: '4',
        f: '54291.3',
        m: '23.9962',
        r: '0',
      },
      {
        e: 'outboundContractAccountInfo',
        E: 6000,
        T: true,
        W: false,
        D: true,
        B: [{ a: 'USDT', f: '939.526008', l: '60.428200' }],
      },
    ]);
  });

  it('reports a CLOSE order with C true and the leverage of the position it closes; its claim changes the available size, not the USDT', () => {
    const close = order({
      orderId: '7002',
      clientOrderId: 'close-1',
      side: 'SELL_CLOSE',
      leverage: '0',
      quantity: '3',
      marginLocked: '0',
      marginLeft: '0',
    });
    const held = position({
      size: '10',
      available: '7',
      opening: '0',
      avgPrice: '59990.5',
      margin: '59.9905',
      flp: '54291.3',
    });
    const { frames } = streamAll(mainStream, [
      event('ContractOrderPlaced', { order: close, balance: usdt('939', '0', '59.9905'), position: held }),
    ]);
    expect(frames.map((f) => f.e)).toEqual(['contractExecutionReport', 'outboundContractPositionInfo']);
    expect(frames[0]).toMatchObject({ S: 'SELL', C: true, v: '10', q: '3', c: 'close-1' });
    expect(frames[1]).toMatchObject({ P: '10', a: '7' });
  });

  it('reports a STOP order as not working until its trigger makes it the LIMIT order it describes; the trigger moves no USDT', () => {
    const stop = order({ orderId: '7003', orderType: 'STOP', triggerPrice: '61000' });
    const { frames } = streamAll(mainStream, [
      event('ContractOrderPlaced', { order: stop, balance: usdt('939.28', '60.72', '0'), position: position() }),
      event(
        'ContractStopTriggered',
        { accountId: '300', symbol: 'BTC-SWAP-USDT', lastPrice: '61000', order: { ...stop, orderType: 'LIMIT' } },
        7000,
      ),
    ]);
    expect(frames.filter((f) => f.e === 'contractExecutionReport').map((r) => [r.o, r.w, r.X, r.c])).toEqual([
      ['STOP', false, 'NEW', 'long-1'],
      ['LIMIT', true, 'NEW', 'long-1'],
    ]);
    expect(frames.at(-1)).toMatchObject({ e: 'contractExecutionReport', E: '7000' });
  });

  it('reports an end (CANCELED, or an IOC remainder EXPIRED) with what was filled, then the released USDT; the ended order is forgotten', () => {
    const memory = new ContractOrderMemory();
    const ended = (status: 'CANCELED' | 'EXPIRED') =>
      event('ContractOrderEnded', {
        accountId: '300',
        symbol: 'BTC-SWAP-USDT',
        side: 'BUY_OPEN',
        order: { orderId: '7001', executedQty: '4', marginLeft: '0', status },
        released: '36.432',
        balance: usdt('975.958008', '0', '23.9962'),
        position: position({ size: '4', available: '4', opening: '0' }),
      });
    const { frames } = streamAll(
      mainStream,
      [placed(), fill('4', '4', 'PARTIALLY_FILLED', 6000), ended('CANCELED')],
      memory,
    );
    expect(frames.slice(-2)).toEqual([
      expect.objectContaining({
        e: 'contractExecutionReport',
        X: 'CANCELED',
        z: '4',
        Z: '239962',
        l: '0',
        q: '10',
        c: 'long-1',
      }),
      expect.objectContaining({
        e: 'outboundContractAccountInfo',
        B: [{ a: 'USDT', f: '975.958008', l: '23.996200' }],
      }),
    ]);
    expect(memory.size).toBe(0);
    expect(streamAll(mainStream, [placed(), ended('EXPIRED')]).frames.at(-2)).toMatchObject({ X: 'EXPIRED' });
  });

  it("says an order canceled because its position was liquidated is not a normal end (u false); a user's cancel stays normal", () => {
    const ended = (reason: string) =>
      event('ContractOrderEnded', {
        accountId: '300',
        symbol: 'BTC-SWAP-USDT',
        side: 'BUY_OPEN',
        order: { orderId: '7001', executedQty: '0', marginLeft: '0', status: 'CANCELED' },
        released: '60.72',
        balance: usdt('1000', '0', '0'),
        position: position({ opening: '0' }),
        reason,
      });
    const reports = (reason: string) =>
      streamAll(contractStream, [placed(), ended(reason)]).frames.filter((f) => f.e === 'contractExecutionReport');
    expect(reports('LIQUIDATION').map((r) => [r.X, r.u])).toEqual([
      ['NEW', true],
      ['CANCELED', false],
    ]);
    expect(reports('USER').map((r) => [r.X, r.u])).toEqual([
      ['NEW', true],
      ['CANCELED', true],
    ]);
  });

  it("sends the USDT as outboundAccountInfo on the contracts account's own stream, with that account's flags", () => {
    const { frames } = streamAll(contractStream, [
      event('ContractAccountCredited', {
        creditId: 'c1',
        accountId: '300',
        amount: '1000',
        balance: usdt('1000', '0', '0'),
      }),
    ]);
    expect(frames).toEqual([
      {
        e: 'outboundAccountInfo',
        E: 5000,
        T: true,
        W: true,
        D: true,
        B: [{ a: 'USDT', f: '1000.000000', l: '0.000000' }],
      },
    ]);
  });

  it('reports margin changes, funding, liquidation and deleveraging as positions of this account only', () => {
    const mine = position({ size: '10', available: '10', opening: '0', avgPrice: '60000', margin: '70', flp: '53700' });
    const theirs = position({ accountId: '999', side: 'SHORT' });
    const short = position({
      side: 'SHORT',
      size: '2',
      available: '2',
      opening: '0',
      avgPrice: '60000',
      margin: '12',
      flp: '65000',
    });
    const payment = (p: PositionAfter, b: ContractBalanceAfter) => ({
      accountId: p.accountId,
      side: p.side,
      amount: '-0.6',
      position: p,
      balance: b,
    });
    const { frames } = streamAll(mainStream, [
      event('PositionMarginModified', {
        accountId: '300',
        symbol: 'BTC-SWAP-USDT',
        side: 'LONG',
        amount: '10',
        position: mine,
        balance: usdt('929', '0', '70'),
      }),
      event('FundingSettled', {
        symbol: 'BTC-SWAP-USDT',
        fundingTime: 8000,
        rate: '0.0001',
        markPrice: '60000',
        payments: [
          payment(mine, usdt('929', '0', '69.4')),
          payment(theirs, usdt('1', '0', '1', '999')),
          payment(short, usdt('929.6', '0', '81.4')),
        ],
        remainder: '0',
        uncovered: '0',
        insurance: usdt('5', '0', '0', '2'),
        flows: [],
      }),
      event('PositionLiquidated', {
        accountId: '300',
        symbol: 'BTC-SWAP-USDT',
        side: 'LONG',
        markPrice: '53700',
        size: '10',
        loss: '69.4',
        bankruptcyValue: '530.6',
        position: position({ opening: '0', realizedPnl: '-69.4', leverage: '0' }),
        balance: usdt('929.6', '0', '12'),
        fundPosition: position({ accountId: '2', size: '10' }),
        flows: [],
      }),
      event('PositionDeleveraged', {
        accountId: '999',
        symbol: 'BTC-SWAP-USDT',
        side: 'LONG',
        markPrice: '53000',
        size: '2',
        loss: '5',
        bankruptcyValue: '100',
        position: theirs,
        balance: usdt('0', '0', '0', '999'),
        counterparties: [
          {
            accountId: '300',
            side: 'SHORT',
            quantity: '2',
            value: '100',
            pnl: '20',
            uncovered: '0',
            position: { ...short, size: '0', available: '0', realizedPnl: '20' },
            balance: usdt('961.6', '0', '0'),
          },
        ],
        flows: [],
      }),
    ]);
    expect(frames.map((f) => [f.e, 'S' in f ? f.S : '', 'P' in f ? f.P : '', 'm' in f ? f.m : ''])).toEqual([
      ['outboundContractPositionInfo', 'LONG', '10', '70'],
      ['outboundContractAccountInfo', '', '', ''],
      ['outboundContractPositionInfo', 'LONG', '10', '70'],
      ['outboundContractPositionInfo', 'SHORT', '2', '12'],
      ['outboundContractAccountInfo', '', '', ''],
      ['outboundContractPositionInfo', 'LONG', '0', '0'],
      ['outboundContractAccountInfo', '', '', ''],
      ['outboundContractPositionInfo', 'SHORT', '0', '12'],
      ['outboundContractAccountInfo', '', '', ''],
    ]);
    // The last balance of this account in a funding settlement is the one after all its payments.
    expect(frames[4]).toMatchObject({ B: [{ a: 'USDT', f: '929.600000', l: '81.400000' }] });
  });

  it("reports an ADL across partitions to a counterparty's stream: its reserved position, then the position closed and its USDT", () => {
    const short = position({ side: 'SHORT', size: '2', available: '2', opening: '0', avgPrice: '60000', margin: '12' });
    const reserved = { ...short, available: '0' };
    const events = [
      event('AdlCandidatesReserved', {
        adlId: 'm/0|999|BTC-SWAP-USDT|LONG',
        fundAccountId: '102',
        requester: 0,
        from: 1,
        symbol: 'BTC-SWAP-USDT',
        side: 'SHORT',
        candidates: [{ accountId: '300', score: '400', quantity: '2' }],
        reserved: [reserved],
        heldForOthers: '0',
      }),
      event('AdlApplied', {
        adlId: 'm/0|999|BTC-SWAP-USDT|LONG',
        fundAccountId: '102',
        symbol: 'BTC-SWAP-USDT',
        counterparties: [
          {
            accountId: '300',
            side: 'SHORT',
            quantity: '2',
            value: '100',
            pnl: '20',
            uncovered: '0',
            position: { ...short, size: '0', available: '0', margin: '0', realizedPnl: '20' },
            balance: usdt('961.6', '0', '0'),
          },
        ],
        released: [],
        flows: [],
      }),
    ];
    expect(events.map((e) => namedAccountsOf(e))).toEqual([['300'], ['300']]);
    const { frames } = streamAll(mainStream, events);
    expect(frames.map((f) => [f.e, 'S' in f ? f.S : '', 'P' in f ? f.P : '', 'a' in f ? f.a : ''])).toEqual([
      ['outboundContractPositionInfo', 'SHORT', '2', '0'],
      ['outboundContractPositionInfo', 'SHORT', '0', '0'],
      ['outboundContractAccountInfo', '', '', ''],
    ]);
  });

  it("gives a stream without a contracts account nothing for contract events, and another account's orders no report", () => {
    const spotOnly: AccountStreamState = { accountId: '101', flags, lastSeq: 10, lastE: 0 };
    const step = streamAll(spotOnly, [placed()]);
    expect(step.frames).toEqual([]);
    expect(step.state.lastSeq).toBe(nextSeq - 1);
    const other = event('ContractOrderPlaced', {
      order: order({ orderId: '8001', accountId: '301' }),
      balance: usdt('1', '1', '0', '301'),
      position: position({ accountId: '301' }),
    });
    expect(streamAll(mainStream, [other]).frames).toEqual([]);
  });

  it('keeps E strictly increasing across events of one time, and a redelivered fill neither reports again nor adds to Z', () => {
    const memory = new ContractOrderMemory();
    const place = placed();
    const first = fill('4', '4', 'PARTIALLY_FILLED', 5000);
    const { frames } = streamAll(mainStream, [place, first, first, fill('6', '10', 'FILLED', 4000)], memory);
    const Es = [...new Set(frames.map((f) => String(f.E)))];
    expect(Es).toEqual(['5000', '5001', '5002']);
    expect(frames.filter((f) => f.e === 'contractExecutionReport').map((r) => 'Z' in r && r.Z)).toEqual([
      '0',
      '239962',
      '599905',
    ]);
  });

  it('reports a fill of an order placed before the replica started with what the event tells (no price, quantity or client id)', () => {
    const { frames } = streamAll(mainStream, [fill('4', '4', 'PARTIALLY_FILLED', 6000)]);
    expect(frames[0]).toMatchObject({
      e: 'contractExecutionReport',
      s: 'BTC-SWAP-USDT',
      S: 'BUY',
      C: false,
      i: '7001',
      c: '',
      q: '0',
      p: '0',
      l: '4',
      z: '4',
      Z: '239962',
      v: '10',
      X: 'PARTIALLY_FILLED',
    });
  });

  it("sends the new flags of a main account's contracts account as outboundContractAccountInfo with no balances, and uses them from then on", () => {
    const set = {
      type: 'AccountFlagsSet',
      v: 1,
      id: 'f:0',
      ts: 9000,
      payload: {
        userId: '7',
        seq: nextSeq++,
        commandId: 'f',
        accountId: '300',
        canTrade: false,
        canWithdraw: true,
        canDeposit: true,
      },
    } as const;
    const { frames, state } = streamAll(mainStream, [
      set,
      event(
        'ContractAccountCredited',
        { creditId: 'c2', accountId: '300', amount: '1', balance: usdt('1', '0', '0') },
        9500,
      ),
    ]);
    expect(frames).toEqual([
      { e: 'outboundContractAccountInfo', E: 9000, T: false, W: true, D: true, B: [] },
      {
        e: 'outboundContractAccountInfo',
        E: 9500,
        T: false,
        W: true,
        D: true,
        B: [{ a: 'USDT', f: '1.000000', l: '0.000000' }],
      },
    ]);
    expect(state.flags).toEqual(flags);
  });
});

describe('contract orders a replica did not see placed', () => {
  it("reports a fill of an order seeded from the ledger's tables in full, with Z going on from what its trades had reached", () => {
    const memory = new ContractOrderMemory();
    memory.seed('7', nextSeq - 1, [
      { record: order({ executedQty: '2', status: 'PARTIALLY_FILLED' }), value: '120000' },
    ]);
    const { frames } = streamAll(mainStream, [fill('2', '4', 'PARTIALLY_FILLED', 6000)], memory);
    expect(frames[0]).toMatchObject({
      c: 'long-1',
      q: '10',
      p: '60000',
      O: '4000',
      l: '2',
      z: '4',
      Z: '239981',
      v: '10',
    });
  });

  it("takes a seeded CLOSE order's leverage from its position, and does not seed from tables older than the events it applied", () => {
    const memory = new ContractOrderMemory();
    const close = order({ orderId: '7009', side: 'SELL_CLOSE', leverage: '0', marginLocked: '0', marginLeft: '0' });
    const held = position({ size: '10', available: '0', opening: '0', leverage: '10' });
    memory.seed('7', nextSeq - 1, [{ record: close, value: '0' }]);
    const ended = event('ContractOrderEnded', {
      accountId: '300',
      symbol: 'BTC-SWAP-USDT',
      side: 'SELL_CLOSE',
      order: { orderId: '7009', executedQty: '0', marginLeft: '0', status: 'CANCELED' },
      released: '0',
      balance: usdt('1', '0', '60'),
      position: held,
    });
    expect(streamAll(mainStream, [ended], memory).frames[0]).toMatchObject({
      C: true,
      v: '10',
      q: '10',
      X: 'CANCELED',
    });
    expect(memory.size).toBe(0);
    memory.seed('7', 1, [{ record: order({ orderId: '7010' }), value: '0' }]);
    expect(memory.size).toBe(0);
  });
});
