import { contractsStateHash } from './contract-state-hash';
import { totalUncovered } from './contract-state';
import { ContractScenario, FEES } from './contract-scenario.fixtures';

const ALICE = '1001';
const BOB = '2001';

/** Alice LONG 1000 at 50000 with 10× (margin 5000), Bob SHORT 1000 at 50000 with 20× (margin 2500). */
function withPositions(): ContractScenario {
  const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
  s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '10');
  s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '20');
  s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '1000', '50000', '1');
  return s;
}

/** The decision is a rejection with `code`, and the state is exactly as before. */
function expectRejected(s: ContractScenario, decide: () => unknown, code: number, msg?: RegExp): void {
  const before = contractsStateHash(s.state);
  const decision = decide() as { rejection?: { code: number; msg: string } };
  expect(decision.rejection?.code).toBe(code);
  if (msg) expect(decision.rejection?.msg).toMatch(msg);
  expect(contractsStateHash(s.state)).toBe(before);
}

describe('Contracts: rejections', () => {
  it('refuses a CLOSE above the available position (-2022), counting what open close orders claim', () => {
    const s = withPositions();
    expectRejected(
      s,
      () => s.order(ALICE, '12', 'SELL_CLOSE', '1001', '51000'),
      -2022,
      /exceeds the available 1000 of the LONG position/,
    );
    s.order(ALICE, '12', 'SELL_CLOSE', '600', '51000');
    expectRejected(s, () => s.order(ALICE, '13', 'SELL_CLOSE', '401', '51000'), -2022, /available 400/);
    // Hedge mode: Alice has no SHORT to close, whatever her LONG.
    expectRejected(
      s,
      () => s.order(ALICE, '14', 'BUY_CLOSE', '1', '51000'),
      -2022,
      /available 0 of the SHORT position/,
    );
    expect(s.order(ALICE, '15', 'SELL_CLOSE', '400', '51000')).toHaveProperty('events');
  });

  it('refuses an OPEN order whose margin and fees exceed free USDT (-1131), and takes one that needs all of it', () => {
    // 1000 at 50000 with 20×: 2500 + 30 + 30 = 2560.
    const s = new ContractScenario().credit(ALICE, '2559.99999999').credit(BOB, '2560');
    expectRejected(s, () => s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '20'), -1131, /needs 2560/);
    s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '20');
    expect(s.balance(BOB)).toEqual({ free: '0', locked: '2560', positionMargin: '0' });
  });

  it('refuses a leverage outside 1 to the tier maximum (-1130), or missing (-1102)', () => {
    const s = new ContractScenario().credit(ALICE, '1000000');
    expectRejected(
      s,
      () => s.order(ALICE, '11', 'BUY_OPEN', '10', '50000', '21'),
      -1130,
      /from 1 to 20 in risk limit 1/,
    );
    expectRejected(s, () => s.order(ALICE, '11', 'BUY_OPEN', '10', '50000', '0.5'), -1130);
    expectRejected(s, () => s.order(ALICE, '11', 'BUY_OPEN', '10', '50000'), -1102);
    // A position reaching past 1,000,000 contracts (orders that would open it included) is in the
    // second tier (10%): at most 10×; past the last tier's 4,000,000 no order opens more.
    s.order(ALICE, '11', 'BUY_OPEN', '600000', '0.1', '20');
    expectRejected(
      s,
      () => s.order(ALICE, '12', 'BUY_OPEN', '400001', '0.1', '20'),
      -1130,
      /from 1 to 10 in risk limit 2/,
    );
    expect(s.order(ALICE, '12', 'BUY_OPEN', '400000', '0.1', '20')).toHaveProperty('events');
    // While a position or an order opens a side, that side keeps one leverage.
    expectRejected(s, () => s.order(ALICE, '13', 'BUY_OPEN', '1', '0.1', '5'), -1130, /has leverage 20/);
    for (const orderId of ['21', '22', '23', '24']) s.order(ALICE, orderId, 'SELL_OPEN', '1000000', '0.1', '5');
    expectRejected(
      s,
      () => s.order(ALICE, '25', 'SELL_OPEN', '1', '0.1', '5'),
      -1130,
      /a position of 4000001 exceeds the last risk limit/,
    );
  });

  it('refuses unknown symbols (-1121), spot ones included, and prices or sizes off the grid (-1130)', () => {
    const s = new ContractScenario().credit(ALICE, '100000');
    expectRejected(s, () => s.order(ALICE, '11', 'BUY_OPEN', '1', '50000', '10', 'BTCUSDT'), -1121);
    expectRejected(s, () => s.order(ALICE, '11', 'BUY_OPEN', '1', '50000.05', '10'), -1130, /multiple of 0.1/);
    expectRejected(s, () => s.order(ALICE, '11', 'BUY_OPEN', '1.5', '50000', '10'), -1130, /multiple of 1/);
  });
});

describe('Contracts: modifyMargin', () => {
  it('adds free USDT to a position and refuses more than free (-1131)', () => {
    const s = withPositions();
    s.given('ModifyPositionMargin', {
      accountId: ALICE,
      symbol: 'BTC-SWAP-USDT',
      side: 'LONG',
      amount: '1000',
      markPrice: '50000',
    });
    expect(s.position(ALICE, 'LONG').margin).toBe('6000');
    expect(s.balance(ALICE)).toEqual({ free: '3970', locked: '0', positionMargin: '6000' });
    expectRejected(
      s,
      () =>
        s.when('ModifyPositionMargin', {
          accountId: ALICE,
          symbol: 'BTC-SWAP-USDT',
          side: 'LONG',
          amount: '3970.00000001',
          markPrice: '50000',
        }),
      -1131,
    );
  });

  it('removes margin down to the initial margin at the mark price plus the unrealised loss, not below (-1131)', () => {
    const s = withPositions();
    s.given('ModifyPositionMargin', {
      accountId: ALICE,
      symbol: 'BTC-SWAP-USDT',
      side: 'LONG',
      amount: '1000',
      markPrice: '50000',
    });
    // Mark 49000: initial margin 49000 / 10 = 4900, unrealised loss 1000: 5900 must stay of 6000.
    expectRejected(
      s,
      () =>
        s.when('ModifyPositionMargin', {
          accountId: ALICE,
          symbol: 'BTC-SWAP-USDT',
          side: 'LONG',
          amount: '-100.00000001',
          markPrice: '49000',
        }),
      -1131,
      /below 5900/,
    );
    s.given('ModifyPositionMargin', {
      accountId: ALICE,
      symbol: 'BTC-SWAP-USDT',
      side: 'LONG',
      amount: '-100',
      markPrice: '49000',
    });
    expect(s.balance(ALICE)).toEqual({ free: '4070', locked: '0', positionMargin: '5900' });
    // Bob's SHORT gains at 49000: only 49000 / 20 = 2450 must stay of his 2500, the gain is not withdrawable.
    s.given('ModifyPositionMargin', {
      accountId: BOB,
      symbol: 'BTC-SWAP-USDT',
      side: 'SHORT',
      amount: '-50',
      markPrice: '49000',
    });
    expect(s.position(BOB, 'SHORT').margin).toBe('2450');
    expectRejected(
      s,
      () =>
        s.when('ModifyPositionMargin', {
          accountId: BOB,
          symbol: 'BTC-SWAP-USDT',
          side: 'SHORT',
          amount: '-0.00000001',
          markPrice: '49000',
        }),
      -1131,
    );
  });

  it('refuses a position that does not exist and an amount finer than USDT (-1130)', () => {
    const s = withPositions();
    expectRejected(
      s,
      () =>
        s.when('ModifyPositionMargin', {
          accountId: ALICE,
          symbol: 'BTC-SWAP-USDT',
          side: 'SHORT',
          amount: '1',
          markPrice: '50000',
        }),
      -1130,
      /no SHORT position/,
    );
    expectRejected(
      s,
      () =>
        s.when('ModifyPositionMargin', {
          accountId: ALICE,
          symbol: 'BTC-SWAP-USDT',
          side: 'LONG',
          amount: '0.000000001',
          markPrice: '50000',
        }),
      -1130,
    );
  });
});

describe('Contracts: a close past bankruptcy', () => {
  it('takes no more than the position margin (isolated) and reports the rest as uncovered', () => {
    const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
    s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '20'); // margin 2500
    s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '20');
    s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '1000', '50000', '1');
    const freeBefore = s.balance(ALICE).free;
    s.order(ALICE, '12', 'SELL_CLOSE', '1000', '47000');
    s.order(BOB, '22', 'BUY_CLOSE', '1000', '47000');
    const [aliceFill] = s.trade(
      { accountId: ALICE, orderId: '12' },
      { accountId: BOB, orderId: '22' },
      '1000',
      '47000',
      '2',
    );
    // Loss 3000 and maker fee 9.4 against a margin of 2500: 509.4 uncovered, free untouched.
    expect(aliceFill).toMatchObject({
      type: 'ContractOrderFilled',
      payload: { pnl: '-2490.6', uncovered: '509.4', fee: '9.4' },
    });
    expect(s.balance(ALICE)).toEqual({ free: freeBefore, locked: '0', positionMargin: '0' });
    expect(s.position(ALICE, 'LONG').realizedPnl).toBe('-2490.6');
    expect(totalUncovered(s.state).toFixed()).toBe('509.4');
    // Bob is paid his whole gain of 3000.
    expect(s.position(BOB, 'SHORT').realizedPnl).toBe('3000');
    expect(s.balance(FEES).free).toBe('77.6'); // 30 + 10 + 9.4 + 28.2
  });
});
