import type { ContractEvent } from '@exchange/contracts';
import { checkFlowsExplainBalances } from './contract-flows.fixtures';
import { evolveContracts, initialContractsState } from './contract-state';
import { contractsStateHash } from './contract-state-hash';
import { aliceLongBobShort, ContractScenario, FEES, FUND, markEffects } from './contract-scenario.fixtures';

// BTC-SWAP-USDT as shipped: 0.001 BTC a contract, maintenance 0.5% in the first tier. A position of
// 1000 contracts is 1 BTC. Alice LONG 1000 at 50000, 20×: margin 2500, so her liquidation price is
// (50000 − 2500) / (1 × 0.995) = 47738.693467336…, shown rounded up: 47738.69346734, and her
// bankruptcy price 47500. Bob SHORT 1000 at 50000, 10×: margin 5000, liquidation price
// (50000 + 5000) / 1.005 = 54726.368159203… rounded down, bankruptcy price 55000.
const [ALICE, BOB, CAROL, DAVE] = ['1001', '2001', '3001', '4001'];
const SYMBOL = 'BTC-SWAP-USDT';

const opened = (fund: string) => aliceLongBobShort({ [ALICE]: '10000', [BOB]: '10000', [CAROL]: '100000' }, fund);

const mark = (s: ContractScenario, markPrice: string) => markEffects(s, SYMBOL, markPrice);
const types = (events: ContractEvent[]) => events.map((e) => e.type);

function only<T extends ContractEvent['type']>(
  events: ContractEvent[],
  type: T,
): Extract<ContractEvent, { type: T }>['payload'] {
  const found = events.filter((e): e is Extract<ContractEvent, { type: T }> => e.type === type);
  if (found.length !== 1) throw new Error(`expected one ${type}, got ${types(events).join(', ')}`);
  return found[0]!.payload as never;
}

function checkAll(s: ContractScenario): void {
  for (const [id, b] of s.state.balances)
    for (const part of [b.free, b.locked, b.positionMargin]) expect([id, part.isNegative()]).toEqual([id, false]);
  checkFlowsExplainBalances(s.journal, s.state);
  expect(contractsStateHash(s.journal.reduce(evolveContracts, initialContractsState()))).toBe(
    contractsStateHash(s.state),
  );
}

describe('Contracts: liquidation', () => {
  it('shows flp on every position and liquidates nothing above it', () => {
    const s = opened('1000');
    expect(s.state.positions.get(`${ALICE}|${SYMBOL}|LONG`)!.flp.toFixed()).toBe('47738.69346734');
    expect(s.state.positions.get(`${BOB}|${SYMBOL}|SHORT`)!.flp.toFixed()).toBe('54726.3681592');
    expect(mark(s, '47738.7')).toEqual([]);
    expect(mark(s, '54726.3')).toEqual([]);
  });

  it('liquidates a long when the mark falls to its flp: orders canceled, the fund takes it at 47500, closes it with an IOC at a gain', () => {
    const s = opened('1000');
    s.order(ALICE, '12', 'SELL_CLOSE', '400', '52000');
    s.order(ALICE, '13', 'BUY_OPEN', '10', '40000', '20');
    // Both orders rest on the engine's book: their cancels go there first, and the takeover waits for their end.
    expect(types(mark(s, '47738.6'))).toEqual(['ContractCancelRequested', 'ContractCancelRequested']);
    expect(mark(s, '47738.6')).toEqual([]);
    expect(
      types(s.given('EndContractOrder', { accountId: ALICE, orderId: '12', symbol: SYMBOL, status: 'CANCELED' })),
    ).toEqual(['ContractOrderEnded']);
    // The end of the last one takes the position over at the mark the partition keeps: a flat market sends no later mark.
    const events = s
      .given('EndContractOrder', { accountId: ALICE, orderId: '13', symbol: SYMBOL, status: 'CANCELED' })
      .filter((e) => e.type !== 'ContractOrderEnded');
    expect(types(events)).toEqual(['PositionLiquidated', 'ContractOrderPlaced']);
    expect(mark(s, '47738.6')).toEqual([]);
    const liquidated = only(events, 'PositionLiquidated');
    expect(liquidated).toMatchObject({
      accountId: ALICE,
      side: 'LONG',
      size: '1000',
      loss: '2500',
      bankruptcyValue: '47500',
    });
    expect(liquidated.flows.map((f) => [f.accountId, f.flowType, f.change])).toEqual([[ALICE, 'PNL', '-2500']]);
    // Alice keeps her free USDT (10000 − 2500 margin − 30 fee) and loses exactly the margin.
    expect(s.balance(ALICE)).toEqual({ free: '7470', locked: '0', positionMargin: '0' });
    expect(s.position(ALICE, 'LONG')).toMatchObject({ size: '0', realizedPnl: '-2500' });
    expect(s.position(FUND, 'LONG')).toMatchObject({ size: '1000', entryValue: '47500', margin: '0', available: '0' });
    // The IOC reaches 5% through the mark: 47738.6 × 0.95 = 45351.67, down to the tick.
    const ioc = only(events, 'ContractOrderPlaced').order;
    expect(ioc).toMatchObject({
      accountId: FUND,
      side: 'SELL_CLOSE',
      price: '45351.6',
      quantity: '1000',
      timeInForce: 'IOC',
      marginLocked: '0',
    });
    // Offered once: the next mark adds no second order while this one is out.
    expect(mark(s, '47700')).toEqual([]);

    // Carol's bid takes it at 47800: the fund gains 300, pays the taker fee 28.68.
    s.order(CAROL, '31', 'BUY_OPEN', '1000', '47800', '10');
    const [, fundFill] = s.trade(
      { accountId: CAROL, orderId: '31' },
      { accountId: FUND, orderId: ioc.orderId },
      '1000',
      '47800',
      '2',
    );
    expect(
      fundFill?.type === 'ContractOrderFilled' &&
        fundFill.payload.flows.map((f) => [f.accountId, f.flowType, f.change]),
    ).toEqual([
      [FUND, 'SETTLEMENT', '300'],
      [FUND, 'FEE', '-28.68'],
      [FEES, 'FEE', '28.68'],
    ]);
    expect(s.balance(FUND)).toEqual({ free: '1271.32', locked: '0', positionMargin: '0' });
    expect(s.position(FUND, 'LONG').size).toBe('0');
    checkAll(s);
  });

  it('liquidates every long one mark crosses in a partition, more than a command once had flows for', () => {
    // Twenty longs of 50 contracts at 50000, 20× (margin 125 each, flp 47738.69…), against one short.
    const s = new ContractScenario().credit(BOB, '100000');
    s.apply('SeedInsuranceFund', { seedId: '1', amount: '100000' });
    s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '10');
    for (let i = 0; i < 20; i++) {
      const long = `7${String(i).padStart(2, '0')}1`;
      s.credit(long, '1000');
      s.order(long, `1${i}`, 'BUY_OPEN', '50', '50000', '20');
      s.trade({ accountId: BOB, orderId: '21' }, { accountId: long, orderId: `1${i}` }, '50', '50000', `${i + 1}`);
    }
    const events = mark(s, '47700');
    expect(events.filter((e) => e.type === 'PositionLiquidated')).toHaveLength(20);
    // Each lost exactly its margin, nothing more.
    for (let i = 0; i < 20; i++) {
      const position = s.state.positions.get(`7${String(i).padStart(2, '0')}1|${SYMBOL}|LONG`)!;
      expect([position.size.toFixed(), position.realizedPnl.toFixed()]).toEqual(['0', '-125']);
    }
    checkAll(s);
  });

  it('liquidates a short when the mark rises to its flp; the fund closes at a loss it can pay', () => {
    const s = opened('1000');
    const events = mark(s, '54726.4');
    expect(only(events, 'PositionLiquidated')).toMatchObject({
      accountId: BOB,
      side: 'SHORT',
      loss: '5000',
      bankruptcyValue: '55000',
    });
    expect(s.balance(BOB)).toEqual({ free: '4990', locked: '0', positionMargin: '0' });
    // BUY_CLOSE at 54726.4 × 1.05 = 57462.72, up to the tick.
    const ioc = only(events, 'ContractOrderPlaced').order;
    expect(ioc).toMatchObject({ side: 'BUY_CLOSE', price: '57462.8', quantity: '1000' });
    // It fills at 55300 in two parts: the fund loses 300 (0.3 × 1000 at 0.001) and 33.18 of fees.
    s.order(CAROL, '31', 'SELL_OPEN', '1000', '55300', '10');
    s.trade({ accountId: CAROL, orderId: '31' }, { accountId: FUND, orderId: ioc.orderId }, '300', '55300', '2');
    s.trade({ accountId: CAROL, orderId: '31' }, { accountId: FUND, orderId: ioc.orderId }, '700', '55300', '3');
    expect(s.balance(FUND)).toEqual({ free: '666.82', locked: '0', positionMargin: '0' });
    expect(s.position(FUND, 'SHORT')).toMatchObject({ size: '0', entryValue: '0', realizedPnl: '-300' });
    checkAll(s);
  });

  it('deleverages when the fund cannot pay: opposite positions close at the bankruptcy price, most profitable × leverage first', () => {
    // Alice LONG 500 at 20× (margin 1250, bankruptcy value 23750) and Carol LONG 500 at 5×; Bob SHORT
    // 600 at 10× and Dave SHORT 400 at 20×, all at 50000. The fund is empty.
    const s = new ContractScenario()
      .credit(ALICE, '10000')
      .credit(BOB, '10000')
      .credit(CAROL, '10000')
      .credit(DAVE, '10000');
    s.order(BOB, '21', 'SELL_OPEN', '600', '50000', '10');
    s.order(DAVE, '41', 'SELL_OPEN', '400', '50000', '20');
    s.order(ALICE, '11', 'BUY_OPEN', '500', '50000', '20');
    s.order(CAROL, '31', 'BUY_OPEN', '500', '50000', '5');
    s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '500', '50000', '1');
    s.trade({ accountId: BOB, orderId: '21' }, { accountId: CAROL, orderId: '31' }, '100', '50000', '2');
    s.trade({ accountId: DAVE, orderId: '41' }, { accountId: CAROL, orderId: '31' }, '400', '50000', '3');
    s.order(BOB, '22', 'BUY_CLOSE', '600', '49000');

    // A gap to 47000: taking Alice over at 47500 would cost the fund 250 at once. Scores at 47000:
    // Dave 1200 × 20 = 24000, Bob 1800 × 10 = 18000: Dave closes 400, Bob 100.
    // Bob's close order rests on the engine's book: nobody is deleveraged until the engine ended it.
    expect(types(mark(s, '47000'))).toEqual(['ContractCancelRequested']);
    s.given('EndContractOrder', { accountId: BOB, orderId: '22', symbol: SYMBOL, status: 'CANCELED' });
    const events = mark(s, '47000');
    expect(types(events)).toEqual(['PositionDeleveraged']);
    const adl = only(events, 'PositionDeleveraged');
    expect(adl).toMatchObject({ accountId: ALICE, side: 'LONG', size: '500', loss: '1250', bankruptcyValue: '23750' });
    // Dave: 400/500 of 23750 = 19000 for an entry of 20000: +1000. Bob, the rest: 4750 for 100
    // contracts entered at 5000: +250, his close order (which claimed them) canceled first.
    expect(adl.counterparties.map((c) => [c.accountId, c.quantity, c.value, c.pnl])).toEqual([
      [DAVE, '400', '19000', '1000'],
      [BOB, '100', '4750', '250'],
    ]);
    expect(adl.flows.map((f) => [f.accountId, f.flowType, f.change])).toEqual([
      [ALICE, 'PNL', '-1250'],
      [DAVE, 'SETTLEMENT', '1000'],
      [BOB, 'SETTLEMENT', '250'],
    ]);
    expect(s.position(BOB, 'SHORT')).toMatchObject({
      size: '500',
      available: '500',
      entryValue: '25000',
      margin: '2500',
    });
    expect(s.position(DAVE, 'SHORT')).toMatchObject({ size: '0', margin: '0' });
    expect(s.balance(ALICE).positionMargin).toBe('0');
    expect(s.state.positions.get(`${FUND}|${SYMBOL}|LONG`)).toBeUndefined();
    checkAll(s);
  });

  it('takes over at the bankruptcy price past a gap when the fund can pay the loss', () => {
    const s = opened('250');
    mark(s, '47250');
    // At 47250 the fund's 1 BTC bought at 47500 is 250 down: exactly what it holds.
    expect(s.position(FUND, 'LONG')).toMatchObject({ size: '1000', entryValue: '47500' });
    checkAll(s);
  });
});
