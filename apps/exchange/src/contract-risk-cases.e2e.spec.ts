import 'reflect-metadata';
import Decimal from 'decimal.js';
import { ManualClock } from '@exchange/platform';
import { contractClient } from '../../../test/support/contract-client';
import type { TestUser } from '../../../test/support/exchange-actors';
import { externalIndexMarkets } from '../../../test/support/external-index-markets';
import { adminCall } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;
const SWAP = 'BTC-SWAP-USDT';
const INTERVAL = 60_000;
const MULTIPLIER = new Decimal('0.001');

/** CONTRACTS.md: rate = clamp(P + clamp(0.01% − P, −0.05%, +0.05%), −0.75%, +0.75%). */
function rateOf(premium: Decimal): Decimal {
  const clamp = (v: Decimal, bound: string) => Decimal.min(bound, Decimal.max(new Decimal(bound).negated(), v));
  return clamp(premium.plus(clamp(new Decimal('0.0001').minus(premium), '0.0005')), '0.0075');
}

/**
 * Funding with a positive, a clamped positive and a clamped negative rate, then a short and a long
 * liquidated through the operator's index (CONTRACTS.md, Prices, funding, liquidation), end to
 * end: every payment and the fund's gain and loss computed here from the formulas, and every
 * account's balance flow adding up to its USDT.
 */
describe('funding rates and liquidations, to the unit', () => {
  const clock = new ManualClock(Math.floor(Date.now() / INTERVAL) * INTERVAL + 1000);
  let exchange: TestExchange;
  let alice: TestUser, bob: TestUser, carol: TestUser, dave: TestUser, erin: TestUser;
  let c: ReturnType<typeof contractClient>;
  const depth = async () =>
    JSON.stringify(
      (await fetch(`${exchange.baseUrl}/openapi/quote/v1/contract/depth?symbol=${SWAP}`).then((r) => r.json())) as Json,
    );
  const pastFix = async () =>
    (
      (await fetch(`${exchange.baseUrl}/openapi/contract/v1/fundingRate?symbol=${SWAP}&state=past`).then((r) =>
        r.json(),
      )) as Json[]
    )[0];
  const checkFlowsExplain = async (user: TestUser) => {
    const { flows, total } = await c.flowsExplain(user);
    expect(flows).toBe(total);
  };

  /** Carol's resting book: both sides, so market data samples the contract's basis each second. */
  const carolBook = async (bid: string, ask: string) => {
    await c.call(carol, 'DELETE', '/openapi/contract/v1/order/batchCancel', { symbol: SWAP });
    expect((await c.order(carol, 'BUY_OPEN', '2', bid)).body).toMatchObject({ status: 'NEW' });
    expect((await c.order(carol, 'SELL_OPEN', '2', ask)).body).toMatchObject({ status: 'NEW' });
    // Market data's price fold takes the book with its depth: seen there, the next second samples it.
    await waitFor(
      async () => (await depth()).includes(`"${ask}`) && (await depth()).includes(`"${bid}`),
      `Carol's book ${bid}/${ask}`,
      15_000,
      50,
    );
  };

  /** Moves to the interval's end and feeds the index there: the interval is fixed and paid at that instant. */
  const endInterval = async (k: number) => {
    clock.advance(k === 1 ? INTERVAL - 1000 : INTERVAL);
    await c.feed('30000');
    await waitFor(
      async () => Number((await pastFix())?.intervalEnd) === clock.now(),
      `the fix of interval ${k}`,
      15_000,
      50,
    );
  };

  beforeAll(async () => {
    exchange = await startTestExchange({
      clock,
      env: { MARKETS_FILE: externalIndexMarkets(SWAP, 'BTCIDX'), CONTRACT_FUNDING_INTERVAL_MS: String(INTERVAL) },
    });
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    c = contractClient(exchange.baseUrl, token, clock, SWAP, 'BTCIDX');
    [alice, bob, carol, dave, erin] = [
      await c.trader('1000'),
      await c.trader('1000'),
      await c.trader('1000'),
      await c.trader('1000'),
      await c.trader('1000'),
    ];
    await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/insurance-fund', { amount: '80000' });
    await c.feed('30000');
  });
  afterAll(async () => exchange.close());

  it('pays three intervals, +0.01%, clamped +0.45% and clamped −0.45%, every payment to the unit, the sum unchanged', async () => {
    // Alice LONG 10 and Bob SHORT 10 at 30000, 10×: 0.01 BTC each.
    expect((await c.order(bob, 'SELL_OPEN', '10', '30000')).body).toMatchObject({ status: 'NEW' });
    expect((await c.order(alice, 'BUY_OPEN', '10', '30000')).body).toMatchObject({ status: 'FILLED' });
    const sum = async () => (await c.total(alice)).plus(await c.total(bob)).plus(await c.insurance());
    const before = { alice: await c.total(alice), bob: await c.total(bob), sum: await sum() };
    // Interval 1, no contract book: mark = index, P = 0. Interval 2, Carol's mid 30151 (basis +151,
    // past the ±0.5% bound): mark 30150, P = +0.5% every second. Interval 3, her mid 1000: the
    // average basis is past −150 from the first second on, mark 29850, P = −0.5%.
    const intervals = [
      { book: undefined, premium: '0', mark: '30000' },
      { book: ['30101', '30201'], premium: '0.005', mark: '30150' },
      { book: ['900', '1100'], premium: '-0.005', mark: '29850' },
    ] as const;
    let paid = new Decimal(0);
    for (const [i, interval] of intervals.entries()) {
      if (interval.book) await carolBook(interval.book[0], interval.book[1]);
      await endInterval(i + 1);
      const rate = rateOf(new Decimal(interval.premium));
      expect((await pastFix())?.rate).toBe(rate.toFixed());
      // LONG pays size × multiplier × mark × rate when the rate is positive, receives it when negative.
      const payment = new Decimal(10)
        .times(MULTIPLIER)
        .times(interval.mark)
        .times(rate)
        .toDecimalPlaces(8, Decimal.ROUND_UP);
      paid = paid.plus(payment);
      await waitFor(
        async () => (await c.total(alice)).eq(before.alice.minus(paid)),
        `interval ${i + 1} paid by Alice`,
        15_000,
        50,
      );
      await waitFor(
        async () => (await c.total(bob)).eq(before.bob.plus(paid)),
        `interval ${i + 1} received by Bob`,
        15_000,
        50,
      );
    }
    expect(rateOf(new Decimal('0.005')).toFixed()).toBe('0.0045');
    expect(paid.toFixed()).toBe(new Decimal('0.03').plus('1.35675').minus('1.34325').toFixed());
    expect((await sum()).toFixed()).toBe(before.sum.toFixed());
    const funding = (await c.flows(alice)).filter((f) => f.flowType === 'FUNDING_SETTLEMENT').map((f) => f.change);
    expect(funding).toEqual(['1.34325000', '-1.35675000', '-0.03000000']);
    for (const user of [alice, bob]) await checkFlowsExplain(user);
  });

  it('shows positions at the mark price, not the last trade', async () => {
    // Carol's book still holds the mark at index − 0.5%: 29850 while the last trade was 30000.
    // The mark reaches the ledger after the funding fix it was decided with.
    await waitFor(
      async () => (await c.position(alice, 'LONG'))?.markPrice === '29850',
      'the mark of the last fix',
      15_000,
      50,
    );
    const long = await c.position(alice, 'LONG');
    expect(long).toMatchObject({
      lastPrice: '30000',
      markPrice: '29850',
      positionValue: '298.5',
      unrealizedPnL: '-1.5',
    });
    expect(await c.position(bob, 'SHORT')).toMatchObject({
      lastPrice: '30000',
      markPrice: '29850',
      unrealizedPnL: '1.5',
    });
    expect(long!.marginRate).toBe(
      new Decimal(long!.margin as string).minus('1.5').div('298.5').toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(),
    );
  });

  it('liquidates the short when the index rises through its flp; the fund closes it through the book at a gain', async () => {
    await c.call(carol, 'DELETE', '/openapi/contract/v1/order/batchCancel', { symbol: SWAP });
    const short = await c.position(bob, 'SHORT');
    const [margin, bobBefore, fundBefore] = [
      new Decimal(short!.margin as string),
      await c.total(bob),
      await c.insurance(),
    ];
    // The fund takes it at the bankruptcy price (entry value + margin) and buys it back from Dave's ask below that.
    const bankruptcy = new Decimal('300').plus(margin);
    const ask = bankruptcy.div(10).div(MULTIPLIER).minus(50).toDecimalPlaces(1, Decimal.ROUND_DOWN);
    expect((await c.order(dave, 'SELL_OPEN', '10', ask.toFixed())).body).toMatchObject({ status: 'NEW' });
    // The mark follows the index − 0.5% (the basis average is still past the bound).
    clock.advance(1000);
    await c.feed(new Decimal(short!.flp as string).div('0.995').plus(20).toDecimalPlaces(0).toFixed());
    await waitFor(async () => (await c.position(bob, 'SHORT')) === undefined, 'the short to be liquidated', 15_000, 50);
    await waitFor(
      async () => (await c.position(dave, 'SHORT'))?.position === '10',
      "the fund's close against Dave",
      15_000,
      50,
    );
    // Bob loses exactly his margin; the fund gains bankruptcy − buy-back and pays the taker fee.
    expect((await c.total(bob)).toFixed()).toBe(bobBefore.minus(margin).toFixed());
    const buyBack = ask.times(10).times(MULTIPLIER);
    const fee = buyBack.times('0.0006').toDecimalPlaces(8, Decimal.ROUND_UP);
    await waitFor(
      async () => (await c.insurance()).eq(fundBefore.plus(bankruptcy).minus(buyBack).minus(fee)),
      'the fund to gain',
      15_000,
      50,
    );
    const bobFlows = await c.flows(bob);
    expect(bobFlows[0]).toMatchObject({ flowType: 'PNL', change: margin.negated().toFixed(8) });
    for (const user of [bob, dave]) await checkFlowsExplain(user);
  });

  it('liquidates the long when the index falls through its flp; the fund sells it to a lower bid at a loss it pays', async () => {
    const long = await c.position(alice, 'LONG');
    const [margin, aliceBefore, fundBefore] = [
      new Decimal(long!.margin as string),
      await c.total(alice),
      await c.insurance(),
    ];
    const bankruptcy = new Decimal('300').minus(margin);
    const bid = bankruptcy.div(10).div(MULTIPLIER).minus(100).toDecimalPlaces(1, Decimal.ROUND_DOWN);
    expect((await c.order(erin, 'BUY_OPEN', '10', bid.toFixed())).body).toMatchObject({ status: 'NEW' });
    clock.advance(1000);
    await c.feed(new Decimal(long!.flp as string).div('0.995').minus(20).toDecimalPlaces(0).toFixed());
    await waitFor(async () => (await c.position(alice, 'LONG')) === undefined, 'the long to be liquidated', 15_000, 50);
    await waitFor(
      async () => (await c.position(erin, 'LONG'))?.position === '10',
      "the fund's close against Erin",
      15_000,
      50,
    );
    expect((await c.total(alice)).toFixed()).toBe(aliceBefore.minus(margin).toFixed());
    const sale = bid.times(10).times(MULTIPLIER);
    const fee = sale.times('0.0006').toDecimalPlaces(8, Decimal.ROUND_UP);
    await waitFor(
      async () => (await c.insurance()).eq(fundBefore.minus(bankruptcy.minus(sale)).minus(fee)),
      'the fund to lose',
      15_000,
      50,
    );
    expect((await c.flows(alice))[0]).toMatchObject({ flowType: 'PNL', change: margin.negated().toFixed(8) });
    for (const user of [alice, erin]) {
      await checkFlowsExplain(user);
      expect((await c.total(user)).isNegative()).toBe(false);
    }
  });
});
