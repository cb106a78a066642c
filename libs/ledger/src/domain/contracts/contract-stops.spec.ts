import type { ContractEvent } from '@exchange/contracts';
import { evolveContracts, initialContractsState } from './contract-state';
import { contractsStateHash } from './contract-state-hash';
import { ContractScenario } from './contract-scenario.fixtures';

const [ALICE, BOB] = ['1001', '2001'];
const SYMBOL = 'BTC-SWAP-USDT';

function stop(
  s: ContractScenario,
  accountId: string,
  orderId: string,
  side: 'BUY_OPEN' | 'SELL_OPEN',
  price: string,
  triggerPrice?: string,
) {
  return s.when('PlaceContractOrder', {
    accountId,
    orderId,
    symbol: SYMBOL,
    side,
    price,
    quantity: '100',
    leverage: '10',
    marketsVersion: 1,
    orderType: 'STOP',
    ...(triggerPrice ? { triggerPrice } : {}),
  });
}

const last = (s: ContractScenario, lastPrice: string) => s.apply('TriggerContractStops', { symbol: SYMBOL, lastPrice });
const released = (events: ContractEvent[]) =>
  events.map((e) =>
    e.type === 'ContractStopTriggered'
      ? [e.payload.order.orderId, e.payload.order.orderType, e.payload.lastPrice]
      : [e.type],
  );

describe('Contracts: STOP orders', () => {
  it('locks margin from submission, waits off the book, and is released as its LIMIT order when the last price crosses the trigger', () => {
    const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
    // 100 × 0.001 × 51000 = 5100: margin 510 at 10× and a taker fee of 3.06 twice.
    stop(s, ALICE, '11', 'BUY_OPEN', '51000', '50500');
    expect(s.balance(ALICE)).toEqual({ free: '9483.88', locked: '516.12', positionMargin: '0' });
    expect(s.state.orders.get('11')).toMatchObject({ orderType: 'STOP', triggerPrice: '50500', status: 'NEW' });
    stop(s, BOB, '21', 'SELL_OPEN', '48900', '49000');

    // No fill reaches a stop its trigger has not released.
    expect(
      s.when('FillContractOrder', {
        accountId: ALICE,
        orderId: '11',
        symbol: SYMBOL,
        tradeId: '1',
        price: '51000',
        quantity: '100',
        isMaker: false,
      }),
    ).toMatchObject({ rejection: { code: -1001 } });
    // A buy stop waits for the price to rise to its trigger, a sell stop for it to fall.
    expect(last(s, '50499.9')).toEqual([]);
    expect(released(last(s, '50500'))).toEqual([['11', 'LIMIT', '50500']]);
    expect(s.state.orders.get('11')).toMatchObject({ orderType: 'LIMIT', marginLeft: '516.12' });
    expect(last(s, '50600')).toEqual([]);
    expect(released(last(s, '48000'))).toEqual([['21', 'LIMIT', '48000']]);

    // Released, they trade as any order.
    s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '100', '50000', '2');
    expect(s.position(ALICE, 'LONG')).toMatchObject({ size: '100', margin: '500' });
    expect(contractsStateHash(s.journal.reduce(evolveContracts, initialContractsState()))).toBe(
      contractsStateHash(s.state),
    );
  });

  it('cancels a stop before its trigger (the lock comes back, the trigger finds nothing) and refuses one without a trigger price', () => {
    const s = new ContractScenario().credit(ALICE, '10000');
    stop(s, ALICE, '11', 'BUY_OPEN', '51000', '50500');
    s.given('EndContractOrder', { accountId: ALICE, orderId: '11', symbol: SYMBOL, status: 'CANCELED' });
    expect(s.balance(ALICE)).toEqual({ free: '10000', locked: '0', positionMargin: '0' });
    expect(last(s, '60000')).toEqual([]);
    expect(stop(s, ALICE, '12', 'BUY_OPEN', '51000')).toMatchObject({ rejection: { code: -1102 } });
    expect(stop(s, ALICE, '13', 'BUY_OPEN', '51000', '50500.05')).toMatchObject({ rejection: { code: -1130 } });
  });
});
