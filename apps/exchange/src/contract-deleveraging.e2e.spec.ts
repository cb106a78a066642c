import 'reflect-metadata';
import Decimal from 'decimal.js';
import { partitionForKey } from '@exchange/messaging';
import { ManualClock } from '@exchange/platform';
import { Topics } from '@exchange/contracts';
import { contractClient } from '../../../test/support/contract-client';
import type { TestUser } from '../../../test/support/exchange-actors';
import { externalIndexMarkets } from '../../../test/support/external-index-markets';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

const SWAP = 'BTC-SWAP-USDT';

/**
 * Auto-deleveraging end to end (CONTRACTS.md, Liquidation): with an empty insurance fund a gap in
 * the index takes a long past its bankruptcy price, and the opposite position, held in another
 * ledger partition, closes against it at that price: the long's partition takes it into its fund
 * share, asks the other partitions for candidates and sends the one it takes its leg (ApplyAdl),
 * all through ledger.commands.
 */
describe('auto-deleveraging when the insurance fund is empty', () => {
  const clock = new ManualClock(Date.now());
  let exchange: TestExchange;
  let c: ReturnType<typeof contractClient>;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, env: { MARKETS_FILE: externalIndexMarkets(SWAP, 'BTCIDX') } });
    c = contractClient(exchange.baseUrl, exchange.infrastructure.config.ADMIN_TOKEN!, clock, SWAP, 'BTCIDX');
    alice = await c.trader('1000');
    // The counterparty sits in another ledger partition than the bankrupt position.
    const partition = (user: TestUser) => partitionForKey(user.userId, Topics.ledgerCommands.partitions);
    do bob = await c.trader('1000');
    while (partition(bob) === partition(alice));
    await c.feed('30000');
  });
  afterAll(async () => exchange.close());

  it('closes the bankrupt long against the short of another partition at the bankruptcy price: the fund untouched, every unit of USDT in the flows', async () => {
    // Alice LONG 10 at 30000, 20×: margin 15, bankruptcy price 28500. Bob SHORT 10 at 30000, 10×.
    expect((await c.order(bob, 'SELL_OPEN', '10', '30000')).body).toMatchObject({ status: 'NEW' });
    expect((await c.order(alice, 'BUY_OPEN', '10', '30000', '20')).body).toMatchObject({ status: 'FILLED' });
    const [aliceBefore, bobBefore, fundBefore] = [await c.total(alice), await c.total(bob), await c.insurance()];
    expect(fundBefore.toFixed()).toBe('0');
    expect(await c.position(alice, 'LONG')).toMatchObject({ margin: '15' });
    // The index gaps to 28000 (no contract book: the mark is the index), below 28500: the fund
    // would lose 5 it does not have.
    clock.advance(1000);
    await c.feed('28000');
    await waitFor(
      async () => (await c.position(alice, 'LONG')) === undefined,
      "Alice's long to be deleveraged",
      15_000,
      50,
    );
    await waitFor(
      async () => (await c.position(bob, 'SHORT')) === undefined,
      "Bob's short to be closed against it",
      15_000,
      50,
    );
    // Alice loses her margin; Bob gains (30000 − 28500) × 10 × 0.001 = 15 and gets his margin back.
    expect((await c.total(alice)).toFixed()).toBe(aliceBefore.minus(15).toFixed());
    expect((await c.total(bob)).toFixed()).toBe(bobBefore.plus(15).toFixed());
    expect((await c.flows(alice))[0]).toMatchObject({ flowType: 'PNL', change: '-15.00000000' });
    expect((await c.flows(bob))[0]).toMatchObject({ flowType: 'SETTLEMENT', change: '15.00000000' });
    expect((await c.insurance()).toFixed()).toBe('0');
    for (const user of [alice, bob]) {
      const { flows, total } = await c.flowsExplain(user);
      expect(flows).toBe(total);
      expect(new Decimal(total).isNegative()).toBe(false);
    }
  });
});
