import { type LedgerJournalEvent, orderCommandSchema } from '@exchange/contracts';
import { orderCommandsFor } from '../order-commands-from-events';
import { evolve, initialLedgerState } from '../ledger-state';
import { ledgerStateHash } from '../ledger-state-hash';
import { ALICE, BOB, funded, leg, outcome, place, SWAP } from './contract-ledger.fixtures';
import { FEES } from './contract-scenario.fixtures';
import { peekPosition } from './contract-state';

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
    expect(filled?.type === 'ContractOrderFilled' && filled.payload.time).toBe(ledger.sentAt);
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
    ledger.given(
      'PlaceContractOrder',
      place(ALICE, '23', 'BUY_OPEN', '5', '29000', { leverage: '20', timeInForce: 'FOK' }),
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
