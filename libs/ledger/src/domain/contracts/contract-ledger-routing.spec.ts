import {
  type LedgerCommand,
  ledgerCommandSchema,
  type LedgerJournalEvent,
  orderCommandSchema,
} from '@exchange/contracts';
import { decide, type TradingContext } from '../decide';
import { orderCommandsFor } from '../order-commands-from-events';
import { evolve, initialLedgerState } from '../ledger-state';
import { ledgerStateHash } from '../ledger-state-hash';
import { shippedMarkets as markets } from './contract-scenario.fixtures';
import { peekContractBalance, peekPosition } from './contract-state';

const T0 = 1_700_000_000_000;
const FEES = '9000000001';
const SWAP = 'BTC-SWAP-USDT';
const ALICE = { userId: '100', spot: '1001', contracts: '1003' };
const BOB = { userId: '200', spot: '2001', contracts: '2003' };

let ids = 0;
function cmd(type: LedgerCommand['type'], payload: Record<string, unknown>): LedgerCommand {
  return ledgerCommandSchema.parse({
    type,
    v: type === 'ApplyOrderOutcome' ? 2 : 1,
    id: `t${++ids}`,
    ts: T0 + ids,
    payload,
  });
}

/** The ledger's decide/evolve with the shipped markets: contract commands routed inside the same step as spot ones. */
class Ledger {
  readonly state = initialLedgerState();
  readonly journal: LedgerJournalEvent[] = [];
  private offset = 0;

  when(command: LedgerCommand): LedgerJournalEvent[] {
    const offset = this.offset++;
    const ctx: TradingContext = {
      // The ledger decides a little after the sender: times the engine gave must not become the ledger's.
      now: command.ts + 1_000,
      flowId: (k) => String(offset * 16 + k + 1),
      asset: (n) => markets.asset(n),
      symbol: (s) => markets.symbol(s),
      contract: (s) => markets.contract(s),
      feeAccountId: FEES,
    };
    const events = decide(command, this.state, ctx);
    for (const e of events) evolve(this.state, e);
    this.journal.push(...events);
    return events;
  }

  given(type: LedgerCommand['type'], payload: Record<string, unknown>): LedgerJournalEvent[] {
    const events = this.when(cmd(type, payload));
    if (events[0]?.type === 'CommandRejected') throw new Error(`given ${type} was rejected: ${events[0].payload.msg}`);
    return events;
  }

  rejection(type: LedgerCommand['type'], payload: Record<string, unknown>): number | undefined {
    const [event] = this.when(cmd(type, payload));
    return event?.type === 'CommandRejected' ? event.payload.code : undefined;
  }

  usdt(accountId: string) {
    const b = peekContractBalance(this.state.contracts, accountId);
    return { free: b.free.toFixed(), locked: b.locked.toFixed(), positionMargin: b.positionMargin.toFixed() };
  }
}

function funded(): Ledger {
  const ledger = new Ledger();
  for (const u of [ALICE, BOB]) {
    ledger.given('CreateUser', { userId: u.userId, name: u.userId, accountIds: [u.spot, `${u.userId}2`, u.contracts] });
    ledger.given('CreditDeposit', {
      userId: u.userId,
      accountId: u.spot,
      depositId: `${u.userId}9`,
      asset: 'USDT',
      amount: '10000',
    });
    ledger.given('TransferFunds', {
      userId: u.userId,
      transferId: `${u.userId}8`,
      fromAccountId: u.spot,
      toAccountId: u.contracts,
      asset: 'USDT',
      amount: '5000',
    });
  }
  return ledger;
}

const place = (
  who: typeof ALICE,
  orderId: string,
  side: string,
  quantity: string,
  price: string,
  more: Record<string, unknown> = {},
) => ({
  userId: who.userId,
  accountId: who.contracts,
  orderId,
  symbol: SWAP,
  side,
  price,
  quantity,
  marketsVersion: markets.version,
  clientOrderId: `c${orderId}`,
  ...more,
});
const leg = (
  who: typeof ALICE,
  orderId: string,
  side: 'BUY' | 'SELL',
  qty: string,
  price: string,
  isMaker: boolean,
) => ({
  tradeId: '77',
  symbol: SWAP,
  orderId,
  accountId: who.contracts,
  userId: who.userId,
  side,
  price,
  qty,
  quoteQty: '0',
  isMaker,
});
const outcome = (who: typeof ALICE, orderId: string, side: 'BUY' | 'SELL', result: string, reason?: string) => ({
  symbol: SWAP,
  orderId,
  accountId: who.contracts,
  userId: who.userId,
  side,
  outcome: result,
  ...(reason ? { reason } : {}),
});

describe('the ledger routes contract commands through the contracts decider', () => {
  it('moves USDT into a contracts account as its free margin balance, with both flows', () => {
    const ledger = funded();
    expect(ledger.usdt(ALICE.contracts)).toEqual({ free: '5000', locked: '0', positionMargin: '0' });
    expect(ledger.state.accounts.get(ALICE.spot)!.balances.get('USDT')!.free.toFixed()).toBe('5000');
    const transfer = ledger.journal.find((e) => e.type === 'FundsTransferred' && e.payload.userId === ALICE.userId);
    expect(
      transfer?.type === 'FundsTransferred' && transfer.payload.flows.map((f) => [f.accountId, f.change, f.total]),
    ).toEqual([
      [ALICE.spot, '-5000', '5000'],
      [ALICE.contracts, '5000', '5000'],
    ]);
  });

  it('opens a long and a short between two accounts: locks, engine commands, fills, fees', () => {
    const ledger = funded();
    const [placed] = ledger.given(
      'PlaceContractOrder',
      place(ALICE, '11', 'BUY_OPEN', '10', '30000', { leverage: '10' }),
    );
    // 10 contracts × 0.001 × 30000 = 300 USDT: margin 30 plus the taker fee (0.18) to open and to close.
    expect(ledger.usdt(ALICE.contracts)).toEqual({ free: '4969.64', locked: '30.36', positionMargin: '0' });
    const [submit] = orderCommandsFor([placed!]);
    expect(orderCommandSchema.parse(submit).payload).toMatchObject({
      symbol: SWAP,
      orderId: '11',
      clientOrderId: 'c11',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '30000',
      quantity: '10',
    });
    ledger.given(
      'PlaceContractOrder',
      place(BOB, '12', 'SELL_OPEN', '10', '30000', { leverage: '10', timeInForce: 'IOC' }),
    );
    expect(orderCommandsFor(ledger.journal.slice(-1))[0]!.payload).toMatchObject({
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'IOC',
    });

    const [filled] = ledger.given('SettleTradeLeg', leg(ALICE, '11', 'BUY', '10', '30000', true));
    // The engine's time of the trade, not the ledger's decision time.
    expect(filled?.type === 'ContractOrderFilled' && filled.payload.time).toBe(T0 + ids);
    ledger.given('SettleTradeLeg', leg(BOB, '12', 'SELL', '10', '30000', false));
    expect(ledger.given('ApplyOrderOutcome', outcome(ALICE, '11', 'BUY', 'FILLED'))).toEqual([]);
    // Maker fee 0.06, taker fee 0.18, from free; the unused share of each lock went back.
    expect(ledger.usdt(ALICE.contracts)).toEqual({ free: '4969.94', locked: '0', positionMargin: '30' });
    expect(ledger.usdt(BOB.contracts)).toEqual({ free: '4969.82', locked: '0', positionMargin: '30' });
    expect(ledger.usdt(FEES)).toEqual({ free: '0.24', locked: '0', positionMargin: '0' });
    expect(peekPosition(ledger.state.contracts, ALICE.contracts, SWAP, 'LONG').size.toFixed()).toBe('10');
    expect(peekPosition(ledger.state.contracts, BOB.contracts, SWAP, 'SHORT').size.toFixed()).toBe('10');
  });

  it('rests, refuses a repeated client id while open, cancels by client id and releases the lock', () => {
    const ledger = funded();
    ledger.given('PlaceContractOrder', place(ALICE, '21', 'BUY_OPEN', '5', '29000', { leverage: '20' }));
    expect(ledger.given('ApplyOrderOutcome', outcome(ALICE, '21', 'BUY', 'RESTED')).map((e) => e.type)).toEqual([
      'ContractOrderRested',
    ]);
    expect(
      ledger.rejection(
        'PlaceContractOrder',
        place(ALICE, '22', 'BUY_OPEN', '5', '29000', { leverage: '20', clientOrderId: 'c21' }),
      ),
    ).toBe(-1141);
    const [requested] = ledger.given('RequestContractCancel', {
      userId: ALICE.userId,
      accountId: ALICE.contracts,
      clientOrderId: 'c21',
    });
    expect(orderCommandsFor([requested!])[0]).toMatchObject({
      type: 'CancelOrder',
      payload: { symbol: SWAP, orderId: '21', accountId: ALICE.contracts },
    });
    const [ended] = ledger.given('ApplyOrderOutcome', outcome(ALICE, '21', 'BUY', 'CANCELED', 'USER'));
    expect(ended?.type === 'ContractOrderEnded' && [ended.payload.order.status, ended.payload.reason]).toEqual([
      'CANCELED',
      'USER',
    ]);
    expect(ledger.usdt(ALICE.contracts)).toEqual({ free: '5000', locked: '0', positionMargin: '0' });
    expect(
      ledger.rejection('RequestContractCancel', { userId: ALICE.userId, accountId: ALICE.contracts, orderId: '21' }),
    ).toBe(-2013);
    // The client id is free again once its order is over.
    ledger.given(
      'PlaceContractOrder',
      place(ALICE, '23', 'BUY_OPEN', '5', '29000', { leverage: '20', clientOrderId: 'c21', timeInForce: 'FOK' }),
    );
    const [expired] = ledger.given('ApplyOrderOutcome', outcome(ALICE, '23', 'BUY', 'CANCELED', 'FOK_NOT_FILLABLE'));
    expect(expired?.type === 'ContractOrderEnded' && expired.payload.order.status).toBe('EXPIRED');
  });

  it('refuses contract orders on a spot account, transfers of other assets, and more than free USDT out', () => {
    const ledger = funded();
    expect(
      ledger.rejection('PlaceContractOrder', {
        ...place(ALICE, '31', 'BUY_OPEN', '1', '30000', { leverage: '10' }),
        accountId: ALICE.spot,
      }),
    ).toBe(-2010);
    expect(
      ledger.rejection('TransferFunds', {
        userId: ALICE.userId,
        transferId: '32',
        fromAccountId: ALICE.spot,
        toAccountId: ALICE.contracts,
        asset: 'BTC',
        amount: '1',
      }),
    ).toBe(-1130);
    expect(
      ledger.rejection('TransferFunds', {
        userId: ALICE.userId,
        transferId: '33',
        fromAccountId: ALICE.contracts,
        toAccountId: ALICE.spot,
        asset: 'USDT',
        amount: '5000.01',
      }),
    ).toBe(-1131);
    ledger.given('TransferFunds', {
      userId: ALICE.userId,
      transferId: '34',
      fromAccountId: ALICE.contracts,
      toAccountId: ALICE.spot,
      asset: 'USDT',
      amount: '1200.5',
    });
    expect(ledger.usdt(ALICE.contracts).free).toBe('3799.5');
    expect(ledger.state.accounts.get(ALICE.spot)!.balances.get('USDT')!.free.toFixed()).toBe('6200.5');
  });

  it('replaying the journal gives the same state hash, contracts included', () => {
    const ledger = funded();
    ledger.given('PlaceContractOrder', place(ALICE, '41', 'BUY_OPEN', '4', '30000', { leverage: '5' }));
    ledger.given('PlaceContractOrder', place(BOB, '42', 'SELL_OPEN', '6', '30000', { leverage: '5' }));
    ledger.given('SettleTradeLeg', leg(BOB, '42', 'SELL', '4', '30000', true));
    ledger.given('SettleTradeLeg', leg(ALICE, '41', 'BUY', '4', '30000', false));
    ledger.given('ModifyPositionMargin', {
      userId: ALICE.userId,
      accountId: ALICE.contracts,
      symbol: SWAP,
      side: 'LONG',
      amount: '7.5',
      markPrice: '30000',
    });
    const replayed = initialLedgerState();
    for (const e of JSON.parse(JSON.stringify(ledger.journal)) as LedgerJournalEvent[]) evolve(replayed, e);
    expect(ledgerStateHash(replayed)).toBe(ledgerStateHash(ledger.state));
  });
});
