import { type ContractEvent, isContractJournalEvent } from '@exchange/contracts';
import { FUNDING_PAYMENTS_PER_COMMAND } from '../ledger-ids';
import { Money, ZERO } from '../ledger-money';
import { positionAfter } from './contract-decision';
import { fundingOf, leg, place } from './contract-ledger.fixtures';
import { ContractScenario, shippedMarkets } from './contract-scenario.fixtures';
import { setBalance, setPosition } from './contract-state';
import { cmd, PartitionedLedger } from './partitioned-ledger.fixtures';

const [ALICE, BOB, CAROL, DAVE] = ['1001', '2001', '3001', '4001'];
const SYMBOL = 'BTC-SWAP-USDT';
const mark = (s: ContractScenario, markPrice: string) =>
  s.apply('MarkContractPrice', { symbol: SYMBOL, markPrice, indexPrice: markPrice, marketsVersion: 1 });

/** Credits, a debit, a seeded fund, a trade at a loss, a margin removal, an ended order, a stop, funding and a liquidation. */
function liquidation(): ContractEvent[] {
  const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000').credit(CAROL, '100000');
  s.apply('SeedInsuranceFund', { seedId: '1', amount: '1000' });
  s.given('DebitContractAccount', { accountId: CAROL, debitId: '2', amount: '1.5' });
  s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '10');
  s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '20');
  s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '1000', '50000', '1');
  s.given('ModifyPositionMargin', { accountId: BOB, symbol: SYMBOL, side: 'SHORT', amount: '200', markPrice: '50000' });
  s.given('ModifyPositionMargin', {
    accountId: BOB,
    symbol: SYMBOL,
    side: 'SHORT',
    amount: '-100',
    markPrice: '50000',
  });
  // Bob closes 100 contracts above his entry: a negative realised PnL.
  s.order(CAROL, '31', 'SELL_OPEN', '100', '50500', '10');
  s.order(BOB, '22', 'BUY_CLOSE', '100', '50500');
  s.trade({ accountId: CAROL, orderId: '31' }, { accountId: BOB, orderId: '22' }, '100', '50500', '2');
  s.order(CAROL, '32', 'BUY_OPEN', '10', '40000', '10');
  s.given('EndContractOrder', { accountId: CAROL, orderId: '32', symbol: SYMBOL, status: 'CANCELED' });
  s.when('PlaceContractOrder', {
    accountId: CAROL,
    orderId: '33',
    symbol: SYMBOL,
    side: 'SELL_OPEN',
    price: '40000',
    quantity: '10',
    leverage: '10',
    marketsVersion: 1,
    orderType: 'STOP',
    triggerPrice: '49000',
  });
  s.apply('TriggerContractStops', { symbol: SYMBOL, lastPrice: '48900' });
  s.apply('SettleFunding', { symbol: SYMBOL, fundingTime: 8 * 3_600_000, rate: '-0.0003', markPrice: '50000' });
  mark(s, '47000');
  return s.journal;
}

/** An empty fund and a gap past the bankruptcy price: opposite positions are deleveraged. */
function deleveraging(): ContractEvent[] {
  const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000').credit(DAVE, '10000');
  s.order(BOB, '21', 'SELL_OPEN', '600', '50000', '10');
  s.order(DAVE, '41', 'SELL_OPEN', '400', '50000', '20');
  s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '20');
  s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '600', '50000', '1');
  s.trade({ accountId: DAVE, orderId: '41' }, { accountId: ALICE, orderId: '11' }, '400', '50000', '2');
  mark(s, '47000');
  return s.journal;
}

/** The same gap with the short in another ledger partition: an ADL across partitions, its commands delivered. */
function deleveragingAcross(): ContractEvent[] {
  const [alice, bob] = [
    { userId: '100', spot: '1001', contracts: '1003' },
    { userId: '200', spot: '2001', contracts: '2003' },
  ];
  const ledger = new PartitionedLedger({
    systemUsers: ['7', '8'],
    partitionOf: (userId) => (userId === bob.userId ? 1 : 0),
    count: 2,
  });
  for (const [u, p] of [
    [alice, 0],
    [bob, 1],
  ] as const)
    for (const [type, payload] of fundingOf(u, '1000')) ledger.given(type, payload, p);
  ledger.given('PlaceContractOrder', place(alice, '11', 'BUY_OPEN', '10', '30000', { leverage: '10' }), 0);
  ledger.given('PlaceContractOrder', place(bob, '21', 'SELL_OPEN', '10', '30000', { leverage: '10' }), 1);
  ledger.given('SettleTradeLeg', leg(alice, '11', 'BUY', '10', '30000', true), 0);
  ledger.given('SettleTradeLeg', leg(bob, '21', 'SELL', '10', '30000', false), 1);
  const payload = { symbol: SYMBOL, markPrice: '26000', indexPrice: '26000', marketsVersion: 1 };
  for (const p of [0, 1]) ledger.when(cmd('MarkContractPrice', payload, `m/${p}`), p);
  for (let next = ledger.outbox.shift(); next; next = ledger.outbox.shift()) ledger.when(next.command, next.partition);
  return ledger.journal.filter(isContractJournalEvent).map(({ type, payload: p }) => {
    const { userId: _user, seq: _seq, commandId: _command, ...rest } = p;
    return { type, payload: rest } as ContractEvent;
  });
}

/**
 * More LONGs than one command may pay funding to or liquidate (put straight into the fold: only
 * the continuation events are kept, the parts' own events are the kinds above).
 */
function continued(): ContractEvent[] {
  const s = new ContractScenario();
  const config = shippedMarkets.contract(SYMBOL)!;
  for (let i = 0; i < FUNDING_PAYMENTS_PER_COMMAND + 1; i++) {
    const accountId = String(50_001 + i * 10);
    const size = new Money(1);
    const position = { accountId, symbol: SYMBOL, side: 'LONG' as const, size, closing: ZERO, opening: ZERO };
    const held = {
      ...position,
      entryValue: new Money(50),
      margin: new Money(5),
      realizedPnl: ZERO,
      leverage: new Money(10),
      flp: ZERO,
    };
    setPosition(s.state, positionAfter(held, config, s.context(0)));
    setBalance(s.state, { accountId, free: '0', locked: '0', positionMargin: '5' });
  }
  s.apply('SettleFunding', { symbol: SYMBOL, fundingTime: 8 * 3_600_000, rate: '0.0001', markPrice: '50000' });
  mark(s, '40000');
  return s.journal.filter((e) => e.type === 'FundingContinued' || e.type === 'LiquidationContinued');
}

/** Every kind of event the contracts decider journals, from the scenarios its specs run. */
export function everyContractEvent(): ContractEvent[] {
  return [...liquidation(), ...deleveraging(), ...deleveragingAcross(), ...continued()];
}
