import type { LedgerJournalEvent } from '@exchange/contracts';
import { DEFAULT_CLIENT_ID_WINDOW_MS as WINDOW, evolve, initialLedgerState } from '../ledger-state';
import { ledgerStateHash } from '../ledger-state-hash';
import { ALICE, BOB, funded, type Ledger, leg, outcome, place } from './contract-ledger.fixtures';

/** Alice LONG 10 and Bob SHORT 10 at 30000: orders 11 and 12 ended FILLED, with client ids c11 and c12. */
function withPositions(): Ledger {
  const ledger = funded();
  ledger.given('PlaceContractOrder', place(ALICE, '11', 'BUY_OPEN', '10', '30000', { leverage: '10' }));
  ledger.given('PlaceContractOrder', place(BOB, '12', 'SELL_OPEN', '10', '30000', { leverage: '10' }));
  ledger.given('SettleTradeLeg', leg(ALICE, '11', 'BUY', '10', '30000', true));
  ledger.given('SettleTradeLeg', leg(BOB, '12', 'SELL', '10', '30000', false));
  return ledger;
}

/** Alice's repeat of a client id on a new BUY_OPEN: its code, and whether anything moved. */
function repeat(ledger: Ledger, orderId: string, clientOrderId: string) {
  const before = { usdt: ledger.usdt(ALICE.contracts), open: [...ledger.state.contracts.orders.keys()] };
  const code = ledger.rejection(
    'PlaceContractOrder',
    place(ALICE, orderId, 'BUY_OPEN', '1', '29000', { leverage: '10', clientOrderId }),
  );
  const moved =
    JSON.stringify({ usdt: ledger.usdt(ALICE.contracts), open: [...ledger.state.contracts.orders.keys()] }) !==
    JSON.stringify(before);
  return { code, moved };
}

const cancel = (ledger: Ledger, orderId: string): void => {
  ledger.given('RequestContractCancel', { userId: ALICE.userId, accountId: ALICE.contracts, orderId });
  ledger.given('ApplyOrderOutcome', outcome(ALICE, orderId, 'BUY', 'CANCELED', 'USER'));
};

const replayed = (journal: readonly LedgerJournalEvent[]) => {
  const state = initialLedgerState();
  for (const e of JSON.parse(JSON.stringify(journal)) as LedgerJournalEvent[]) evolve(state, e);
  return state;
};

describe('contract client order ids: unique while open and for the retry window after the end', () => {
  it('refuses a client id that an open OPEN, CLOSE or STOP order holds (-1141), and the repeat places and locks nothing', () => {
    const ledger = withPositions();
    ledger.given(
      'PlaceContractOrder',
      place(ALICE, '13', 'BUY_OPEN', '2', '29000', { leverage: '10', clientOrderId: 'open' }),
    );
    ledger.given('PlaceContractOrder', place(ALICE, '14', 'SELL_CLOSE', '4', '31000', { clientOrderId: 'close' }));
    ledger.given(
      'PlaceContractOrder',
      place(ALICE, '15', 'BUY_OPEN', '1', '32000', {
        leverage: '10',
        orderType: 'STOP',
        triggerPrice: '32000',
        clientOrderId: 'stop',
      }),
    );
    expect([repeat(ledger, '16', 'open'), repeat(ledger, '17', 'close'), repeat(ledger, '18', 'stop')]).toEqual([
      { code: -1141, moved: false },
      { code: -1141, moved: false },
      { code: -1141, moved: false },
    ]);
    // Unique per account: Bob may use the same id.
    ledger.given(
      'PlaceContractOrder',
      place(BOB, '19', 'SELL_OPEN', '1', '31000', { leverage: '10', clientOrderId: 'open' }),
    );
  });

  it("keeps an ended order's client id for the window after its end, however it ended, and frees it at the window's end", () => {
    const ledger = withPositions();
    const filledAt = ledger.decidedAt;
    ledger.given(
      'PlaceContractOrder',
      place(ALICE, '21', 'BUY_OPEN', '1', '29000', { leverage: '10', timeInForce: 'IOC', clientOrderId: 'ioc' }),
    );
    ledger.given('ApplyOrderOutcome', outcome(ALICE, '21', 'BUY', 'CANCELED', 'IOC_REMAINDER'));
    ledger.given(
      'PlaceContractOrder',
      place(ALICE, '22', 'BUY_OPEN', '1', '29000', { leverage: '10', clientOrderId: 'mine' }),
    );
    cancel(ledger, '22');
    const canceledAt = ledger.decidedAt;
    // Filled by its last fill, expired as an IOC remainder, canceled by the user: each holds its id.
    expect([repeat(ledger, '23', 'c11'), repeat(ledger, '24', 'ioc'), repeat(ledger, '25', 'mine')]).toEqual([
      { code: -1141, moved: false },
      { code: -1141, moved: false },
      { code: -1141, moved: false },
    ]);
    ledger.decideNextAt(canceledAt + WINDOW - 1);
    expect(repeat(ledger, '26', 'mine')).toEqual({ code: -1141, moved: false });
    ledger.decideNextAt(canceledAt + WINDOW);
    const [placed] = ledger.given(
      'PlaceContractOrder',
      place(ALICE, '27', 'BUY_OPEN', '1', '29000', { leverage: '10', clientOrderId: 'mine' }),
    );
    expect(placed).toMatchObject({ type: 'ContractOrderPlaced', payload: { order: { orderId: '27' } } });
    expect(ledger.state.contractClientIds.get(ALICE.contracts)?.get('mine')).toBe('27');
    // The ids whose window had passed left with that placement; Bob's wait for his next one.
    expect(ledger.state.contractClientIdsEnded.get(ALICE.contracts)).toBeUndefined();
    expect([...ledger.state.contractClientIdsEnded.get(BOB.contracts)!]).toEqual([['c12', filledAt]]);
    expect(ledgerStateHash(replayed(ledger.journal))).toBe(ledgerStateHash(ledger.state));
  });

  it('forgets ended ids by event time at the next placement, past an order left open, and the hash covers them', () => {
    const ledger = funded();
    ledger.given(
      'PlaceContractOrder',
      place(ALICE, '31', 'BUY_OPEN', '1', '28000', { leverage: '10', clientOrderId: 'resting' }),
    );
    for (const id of ['32', '33']) {
      ledger.given('PlaceContractOrder', place(ALICE, id, 'BUY_OPEN', '1', '29000', { leverage: '10' }));
      cancel(ledger, id);
    }
    const firstEnded = ledger.decidedAt - 3;
    ledger.decideNextAt(firstEnded + WINDOW / 2);
    ledger.given('PlaceContractOrder', place(ALICE, '34', 'BUY_OPEN', '1', '29000', { leverage: '10' }));
    cancel(ledger, '34');
    const lastEnded = ledger.decidedAt;
    ledger.decideNextAt(firstEnded + WINDOW + 3);
    ledger.given('PlaceContractOrder', place(ALICE, '35', 'BUY_OPEN', '1', '29000', { leverage: '10' }));

    expect([...ledger.state.contractClientIdsEnded.get(ALICE.contracts)!]).toEqual([['c34', lastEnded]]);
    expect([...ledger.state.contractClientIds.get(ALICE.contracts)!.keys()].sort()).toEqual(['c34', 'c35', 'resting']);
    expect(repeat(ledger, '36', 'c32').code).toBeUndefined();
    expect(repeat(ledger, '37', 'c34')).toEqual({ code: -1141, moved: false });

    const replay = replayed(ledger.journal);
    expect(ledgerStateHash(replay)).toBe(ledgerStateHash(ledger.state));
    replay.contractClientIdsEnded.get(ALICE.contracts)!.set('c34', lastEnded + 1);
    expect(ledgerStateHash(replay)).not.toBe(ledgerStateHash(ledger.state));
  });
});
