import type { ContractEvent } from '@exchange/contracts';
import { Money } from '../ledger-money';
import { checkFlowsExplainBalances } from './contract-flows.fixtures';
import { checkInvariants } from './contract-invariants.fixtures';
import { evolveContracts, initialContractsState } from './contract-state';
import { contractsStateHash } from './contract-state-hash';
import { aliceLongBobShort, type ContractScenario, FUND, markEffects } from './contract-scenario.fixtures';

// Alice LONG 1000 at 50000, 20× (margin 2500, flp 47738.69346734), Bob SHORT 1000 at 50000, 10×,
// as in contract-liquidation.spec. The engine fills an order of Alice's after the mark found her
// past maintenance and before the cancel reached it: the ledger must settle both legs of that trade.
const [ALICE, BOB, CAROL, DAVE] = ['1001', '2001', '3001', '4001'];
const SYMBOL = 'BTC-SWAP-USDT';
const CREDITED = new Money(10000 + 10000 + 100000 + 100000 + 1000);

const opened = () =>
  aliceLongBobShort({ [ALICE]: '10000', [BOB]: '10000', [CAROL]: '100000', [DAVE]: '100000' }, '1000');

const mark = (s: ContractScenario, markPrice: string) => markEffects(s, SYMBOL, markPrice);
const types = (events: ContractEvent[]) => events.map((e) => e.type);
const liquidated = (events: ContractEvent[]) => events.find((e) => e.type === 'PositionLiquidated')?.payload;

function sideSums(s: ContractScenario): { LONG: string; SHORT: string } {
  const sums = { LONG: new Money(0), SHORT: new Money(0) };
  for (const p of s.state.positions.values()) if (p.symbol === SYMBOL) sums[p.side] = sums[p.side].plus(p.size);
  return { LONG: sums.LONG.toFixed(), SHORT: sums.SHORT.toFixed() };
}

function checkAll(s: ContractScenario): void {
  checkInvariants(s.state, CREDITED);
  checkFlowsExplainBalances(s.journal, s.state);
  expect(contractsStateHash(s.journal.reduce(evolveContracts, initialContractsState()))).toBe(
    contractsStateHash(s.state),
  );
}

describe('Contracts: a liquidation cancels through the engine first', () => {
  it('a CLOSE order the engine fills after the mark settles both legs; the next mark takes over what is left', () => {
    const s = opened();
    s.order(ALICE, '12', 'SELL_CLOSE', '400', '47800');
    const first = mark(s, '47738.6');
    expect(types(first)).toEqual(['ContractCancelRequested']);
    expect(s.state.orders.get('12')).toMatchObject({ status: 'NEW', cancelRequested: true });
    expect(s.position(ALICE, 'LONG')).toMatchObject({ size: '1000', available: '600', margin: '2500' });
    // The relay's next marks do not ask again while the cancel is on its way.
    expect(mark(s, '47738.6')).toEqual([]);
    checkAll(s);

    // The engine had matched it: Carol buys 400 at 47800, both legs settle. Alice realises
    // (47800 − 50000) × 0.4 = −880, gets back 1000 of margin, pays the maker fee 19120 × 0.02% = 3.824.
    s.order(CAROL, '31', 'BUY_OPEN', '400', '47800', '10');
    s.trade({ accountId: ALICE, orderId: '12' }, { accountId: CAROL, orderId: '31' }, '400', '47800', '2');
    expect(s.state.orders.has('12')).toBe(false);
    expect(s.position(ALICE, 'LONG')).toMatchObject({
      size: '600',
      available: '600',
      margin: '1500',
      entryValue: '30000',
      realizedPnl: '-880',
    });
    expect(s.position(CAROL, 'LONG')).toMatchObject({ size: '400', margin: '1912' });
    expect(sideSums(s)).toEqual({ LONG: '1000', SHORT: '1000' });
    checkAll(s);

    // The engine answers the cancel with an unknown order (the ledger has nothing to end); the next
    // mark finds her still past maintenance (1500 − 1380 = 120 < 143.1 at 47700) and takes the 600 over.
    const events = mark(s, '47700');
    expect(types(events)).toEqual(['PositionLiquidated', 'ContractOrderPlaced']);
    expect(liquidated(events)).toMatchObject({ accountId: ALICE, size: '600', loss: '1500', bankruptcyValue: '28500' });
    expect(s.balance(ALICE)).toEqual({ free: '7586.176', locked: '0', positionMargin: '0' });
    expect(s.position(FUND, 'LONG')).toMatchObject({ size: '600', entryValue: '28500' });
    expect(sideSums(s)).toEqual({ LONG: '1000', SHORT: '1000' });
    checkAll(s);
  });

  it('an OPEN order the engine fills in part after the mark settles against its lock; its cancel ends the rest, then the takeover', () => {
    const s = opened();
    s.order(ALICE, '13', 'BUY_OPEN', '10', '47700', '20');
    const lock = s.state.orders.get('13')!.marginLocked;
    expect(mark(s, '47738.6')).toEqual([
      { type: 'ContractCancelRequested', payload: expect.objectContaining({ reason: 'LIQUIDATION' }) },
    ]);
    expect(s.state.orders.get('13')).toMatchObject({ cancelRequested: true, cancelReason: 'LIQUIDATION' });
    expect(s.balance(ALICE).locked).toBe(lock);

    // Dave sells 4 into it before the cancel: Alice's position grows by 4 at 47700 (margin 9.54).
    s.order(DAVE, '41', 'SELL_OPEN', '4', '47700', '10');
    s.trade({ accountId: ALICE, orderId: '13' }, { accountId: DAVE, orderId: '41' }, '4', '47700', '2');
    expect(s.position(ALICE, 'LONG')).toMatchObject({ size: '1004', margin: '2509.54', entryValue: '50190.8' });
    expect(sideSums(s)).toEqual({ LONG: '1004', SHORT: '1004' });
    // Still past maintenance at 47700 (2509.54 − 2300 = 209.54 < 239.454): its cancel is on its way, nothing more.
    expect(mark(s, '47700')).toEqual([]);
    checkAll(s);

    // The engine's CANCELED outcome ends the remainder and frees what it still locked; no order is left on the book,
    // so the same step takes the position over at the mark the partition keeps.
    // The engine cancels it as it would a user's (reason USER); its end says it was the liquidation.
    const all = s.given('EndContractOrder', {
      accountId: ALICE,
      orderId: '13',
      symbol: SYMBOL,
      status: 'CANCELED',
      reason: 'USER',
    });
    expect(all[0]).toMatchObject({
      type: 'ContractOrderEnded',
      payload: { order: { orderId: '13', status: 'CANCELED' }, reason: 'LIQUIDATION' },
    });
    const events = all.filter((e) => e.type !== 'ContractOrderEnded');
    expect(s.balance(ALICE).locked).toBe('0');
    expect(types(events)).toEqual(['PositionLiquidated', 'ContractOrderPlaced']);
    // She loses exactly the margin she had then: 2500 + 9.54; the fund takes 1004 at 50190.8 − 2509.54.
    expect(liquidated(events)).toMatchObject({
      accountId: ALICE,
      size: '1004',
      loss: '2509.54',
      bankruptcyValue: '47681.26',
    });
    expect(s.position(ALICE, 'LONG')).toMatchObject({ size: '0', margin: '0' });
    expect(sideSums(s)).toEqual({ LONG: '1004', SHORT: '1004' });
    checkAll(s);
  });

  it('a STOP order waits in the ledger, not on the book: it ends at once and the takeover is not delayed', () => {
    const s = opened();
    s.when('PlaceContractOrder', {
      accountId: ALICE,
      orderId: '14',
      symbol: SYMBOL,
      side: 'SELL_CLOSE',
      orderType: 'STOP',
      triggerPrice: '47000',
      price: '46900',
      quantity: '500',
      marketsVersion: 1,
    });
    const events = mark(s, '47738.6');
    expect(types(events)).toEqual(['ContractOrderEnded', 'PositionLiquidated', 'ContractOrderPlaced']);
    expect(events[0]).toMatchObject({
      payload: { order: { orderId: '14', status: 'CANCELED' }, reason: 'LIQUIDATION' },
    });
    expect(liquidated(events)).toMatchObject({ accountId: ALICE, size: '1000', loss: '2500' });
    checkAll(s);
  });
});
