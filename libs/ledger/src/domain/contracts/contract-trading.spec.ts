import { ContractScenario, FEES } from './contract-scenario.fixtures';

// BTC-SWAP-USDT as shipped: a contract is 0.001 BTC, maker 0.02%, taker 0.06%, up to 20×.
// Every expectation below is worked out by hand in the comment above it.
const ALICE = '1001';
const BOB = '2001';

describe('Contracts: trading between two accounts', () => {
  it('opens a long and a short: OPEN orders lock margin plus both taker fees, fills turn the lock into margin and charge the fee', () => {
    const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
    // value 1000 × 0.001 × 50000 = 50000; margin at 10×: 5000; taker fee 30, twice: lock 5060.
    s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '10');
    expect(s.balance(ALICE)).toEqual({ free: '4940', locked: '5060', positionMargin: '0' });
    // At 20×: margin 2500, lock 2560.
    s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '20');
    expect(s.balance(BOB)).toEqual({ free: '7440', locked: '2560', positionMargin: '0' });

    const [bobFill, aliceFill] = s.trade(
      { accountId: BOB, orderId: '21' },
      { accountId: ALICE, orderId: '11' },
      '1000',
      '50000',
      '1',
    );
    // Alice, taker: fee 30, margin 5000, the rest of the lock (30) back: free 4940 + 30 = 4970.
    expect(s.balance(ALICE)).toEqual({ free: '4970', locked: '0', positionMargin: '5000' });
    expect(s.position(ALICE, 'LONG')).toEqual({
      size: '1000',
      available: '1000',
      avgPrice: '50000',
      entryValue: '50000',
      margin: '5000',
      realizedPnl: '0',
      leverage: '10',
    });
    // Bob, maker: fee 10, margin 2500, free 7440 + 50 = 7490.
    expect(s.balance(BOB)).toEqual({ free: '7490', locked: '0', positionMargin: '2500' });
    expect(s.position(BOB, 'SHORT')).toEqual({
      size: '1000',
      available: '1000',
      avgPrice: '50000',
      entryValue: '50000',
      margin: '2500',
      realizedPnl: '0',
      leverage: '20',
    });
    expect(s.balance(FEES)).toEqual({ free: '40', locked: '0', positionMargin: '0' });
    expect(s.state.orders.size).toBe(0);

    expect(bobFill).toMatchObject({
      type: 'ContractOrderFilled',
      payload: {
        fee: '10',
        pnl: '0',
        order: { orderId: '21', executedQty: '1000', marginLeft: '0', status: 'FILLED' },
      },
    });
    expect(aliceFill?.type === 'ContractOrderFilled' && aliceFill.payload.flows).toEqual([
      { flowId: expect.any(String), accountId: ALICE, asset: 'USDT', flowType: 'FEE', change: '-30', total: '9970' },
      { flowId: expect.any(String), accountId: FEES, asset: 'USDT', flowType: 'FEE', change: '30', total: '40' },
    ]);
  });

  it('fills partially, adds to a position at a new average price, closes partly and then fully with realised PnL', () => {
    const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
    s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '10'); // lock 5060
    s.order(BOB, '21', 'SELL_OPEN', '400', '50000', '10'); // value 20000: lock 2000 + 12 + 12 = 2024
    s.trade({ accountId: ALICE, orderId: '11' }, { accountId: BOB, orderId: '21' }, '400', '50000', '1');
    // Alice's share of her lock: 5060 × 400 / 1000 = 2024; maker fee 4, margin 2000, 20 back to free.
    expect(s.balance(ALICE)).toEqual({ free: '4960', locked: '3036', positionMargin: '2000' });
    expect(s.state.orders.get('11')).toMatchObject({
      status: 'PARTIALLY_FILLED',
      executedQty: '400',
      marginLeft: '3036',
    });
    // Bob, taker: fee 12, margin 2000: free 7976 + 12 = 7988.
    expect(s.balance(BOB)).toEqual({ free: '7988', locked: '0', positionMargin: '2000' });

    s.order(BOB, '22', 'SELL_OPEN', '600', '50000', '10'); // lock 3036
    s.trade({ accountId: ALICE, orderId: '11' }, { accountId: BOB, orderId: '22' }, '600', '50000', '2');
    // Alice's last fill takes what is left of the lock (3036): maker fee 6, margin 3000.
    expect(s.balance(ALICE)).toEqual({ free: '4990', locked: '0', positionMargin: '5000' });
    expect(s.balance(BOB)).toEqual({ free: '4970', locked: '0', positionMargin: '5000' });

    // Add 500 at 48000 (value 24000, lock 2400 + 14.4 + 14.4): Bob rests, Alice takes.
    s.order(ALICE, '12', 'BUY_OPEN', '500', '48000', '10');
    s.order(BOB, '23', 'SELL_OPEN', '500', '48000', '10');
    s.trade({ accountId: BOB, orderId: '23' }, { accountId: ALICE, orderId: '12' }, '500', '48000', '3');
    // Average price (50000 × 1000 + 48000 × 500) / 1500 = 49333.333…, exact in the entry value 74000.
    expect(s.position(ALICE, 'LONG')).toEqual({
      size: '1500',
      available: '1500',
      avgPrice: '49333.33333333',
      entryValue: '74000',
      margin: '7400',
      realizedPnl: '0',
      leverage: '10',
    });
    expect(s.balance(ALICE)).toEqual({ free: '2575.6', locked: '0', positionMargin: '7400' }); // taker fee 14.4
    expect(s.balance(BOB)).toEqual({ free: '2565.2', locked: '0', positionMargin: '7400' }); // maker fee 4.8

    // Close 600 at 52000 (value 31200): the closed share of the entry value is 74000 × 600 / 1500 = 29600.
    s.order(ALICE, '13', 'SELL_CLOSE', '600', '52000');
    expect(s.position(ALICE, 'LONG').available).toBe('900');
    s.order(BOB, '24', 'BUY_CLOSE', '600', '52000');
    const fills = s.trade({ accountId: ALICE, orderId: '13' }, { accountId: BOB, orderId: '24' }, '600', '52000', '4');
    // Alice: PnL 31200 − 29600 = 1600; margin share 2960 back; maker fee 6.24: free 2575.6 + 4553.76.
    expect(s.balance(ALICE)).toEqual({ free: '7129.36', locked: '0', positionMargin: '4440' });
    expect(s.position(ALICE, 'LONG')).toEqual({
      size: '900',
      available: '900',
      avgPrice: '49333.33333333',
      entryValue: '44400',
      margin: '4440',
      realizedPnl: '1600',
      leverage: '10',
    });
    // Bob: PnL 29600 − 31200 = −1600, taker fee 18.72: free 2565.2 + 2960 − 1600 − 18.72.
    expect(s.balance(BOB)).toEqual({ free: '3906.48', locked: '0', positionMargin: '4440' });
    expect(s.position(BOB, 'SHORT').realizedPnl).toBe('-1600');
    const aliceClose = fills[0]!;
    expect(
      aliceClose.type === 'ContractOrderFilled' &&
        aliceClose.payload.flows.map((f) => [f.accountId, f.flowType, f.change, f.total]),
    ).toEqual([
      [ALICE, 'PNL', '1600', '11575.6'],
      [ALICE, 'FEE', '-6.24', '11569.36'],
      [FEES, 'FEE', '6.24', '65.44'],
    ]);

    // Close the rest, 900 at 47000 (value 42300), against the whole remaining entry value 44400.
    s.order(BOB, '25', 'BUY_CLOSE', '900', '47000');
    s.order(ALICE, '14', 'SELL_CLOSE', '900', '47000');
    s.trade({ accountId: BOB, orderId: '25' }, { accountId: ALICE, orderId: '14' }, '900', '47000', '5');
    // Alice: PnL −2100, taker fee 25.38: free 7129.36 + 4440 − 2100 − 25.38. Realised 1600 − 2100.
    expect(s.balance(ALICE)).toEqual({ free: '9443.98', locked: '0', positionMargin: '0' });
    expect(s.position(ALICE, 'LONG')).toEqual({
      size: '0',
      available: '0',
      avgPrice: '0',
      entryValue: '0',
      margin: '0',
      realizedPnl: '-500',
      leverage: '0',
    });
    // Bob: PnL +2100, maker fee 8.46.
    expect(s.balance(BOB)).toEqual({ free: '10438.02', locked: '0', positionMargin: '0' });
    expect(s.position(BOB, 'SHORT').realizedPnl).toBe('500');
    // Every fee of both sides: 40 + 19.2 + 24.96 + 33.84; and 9443.98 + 10438.02 + 118 = 20000.
    expect(s.balance(FEES).free).toBe('118');
  });

  it('rounds a partial close against the holder, and the last close takes exactly what is left', () => {
    const s = new ContractScenario().credit(ALICE, '1000').credit(BOB, '1000');
    // Three fills at 50000, 50000.1, 50000.1: entry value 50 + 50.0001 + 50.0001 = 150.0002.
    s.order(ALICE, '11', 'BUY_OPEN', '3', '50000.1', '7');
    s.order(BOB, '21', 'SELL_OPEN', '1', '50000', '7');
    s.order(BOB, '22', 'SELL_OPEN', '2', '50000.1', '7');
    s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '1', '50000', '1');
    s.trade({ accountId: BOB, orderId: '22' }, { accountId: ALICE, orderId: '11' }, '2', '50000.1', '2');
    // Margins at 7×, rounded up: 50 / 7 → 7.14285715, 100.0002 / 7 → 14.28574286.
    expect(s.position(ALICE, 'LONG')).toMatchObject({ size: '3', entryValue: '150.0002', margin: '21.42860001' });

    s.order(ALICE, '12', 'SELL_CLOSE', '1', '50000');
    s.order(BOB, '23', 'BUY_CLOSE', '1', '50000');
    s.trade({ accountId: ALICE, orderId: '12' }, { accountId: BOB, orderId: '23' }, '1', '50000', '3');
    // LONG's share 150.0002 / 3 = 50.0000666… rounded up (less PnL now): PnL 50 − 50.00006667.
    // SHORT's share rounded down (less PnL for the short too): PnL 50.00006666 − 50.
    expect(s.position(ALICE, 'LONG')).toMatchObject({
      size: '2',
      entryValue: '100.00013333',
      margin: '14.28573334',
      realizedPnl: '-0.00006667',
    });
    expect(s.position(BOB, 'SHORT')).toMatchObject({
      size: '2',
      entryValue: '100.00013334',
      realizedPnl: '0.00006666',
    });

    s.order(ALICE, '13', 'SELL_CLOSE', '2', '50000');
    s.order(BOB, '24', 'BUY_CLOSE', '2', '50000');
    s.trade({ accountId: ALICE, orderId: '13' }, { accountId: BOB, orderId: '24' }, '2', '50000', '4');
    // Over the whole life: PnL 150 − 150.0002 for the long, the opposite for the short, to the last unit.
    expect(s.position(ALICE, 'LONG')).toMatchObject({
      size: '0',
      entryValue: '0',
      margin: '0',
      realizedPnl: '-0.0002',
    });
    expect(s.position(BOB, 'SHORT')).toMatchObject({ size: '0', entryValue: '0', margin: '0', realizedPnl: '0.0002' });
  });

  it('takes what a SELL_OPEN filled above its price needs beyond its lock from free', () => {
    const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
    s.order(ALICE, '11', 'BUY_OPEN', '1000', '51000', '10');
    s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '10'); // lock 5060 at 50000
    s.trade({ accountId: ALICE, orderId: '11' }, { accountId: BOB, orderId: '21' }, '1000', '51000', '1');
    // At 51000: margin 5100, taker fee 30.6; 5130.6 − 5060 = 70.6 more from free: 4940 − 70.6.
    expect(s.balance(BOB)).toEqual({ free: '4869.4', locked: '0', positionMargin: '5100' });
  });

  it('releases what an order holds when its remainder is canceled or expires', () => {
    const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
    s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '10');
    s.order(BOB, '21', 'SELL_OPEN', '400', '50000', '10');
    s.trade({ accountId: ALICE, orderId: '11' }, { accountId: BOB, orderId: '21' }, '400', '50000', '1');
    const [ended] = s.given('EndContractOrder', {
      accountId: ALICE,
      orderId: '11',
      symbol: 'BTC-SWAP-USDT',
      status: 'CANCELED',
    });
    expect(ended).toMatchObject({
      type: 'ContractOrderEnded',
      payload: { released: '3036', order: { orderId: '11', executedQty: '400', status: 'CANCELED' } },
    });
    expect(s.balance(ALICE)).toEqual({ free: '7996', locked: '0', positionMargin: '2000' });

    s.order(ALICE, '12', 'SELL_CLOSE', '300', '60000');
    expect(s.position(ALICE, 'LONG').available).toBe('100');
    s.given('EndContractOrder', { accountId: ALICE, orderId: '12', symbol: 'BTC-SWAP-USDT', status: 'EXPIRED' });
    expect(s.position(ALICE, 'LONG').available).toBe('400');
    expect(s.state.orders.size).toBe(0);
  });
});
