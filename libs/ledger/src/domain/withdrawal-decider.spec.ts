import type { AssetConfig, LedgerCommand, LedgerJournalEvent, WithdrawalRequestFields } from '@exchange/contracts';
import { ledgerCommandSchema, walletCommandSchema } from '@exchange/contracts';
import { decide, type TradingContext } from './decide';
import { Money } from './ledger-money';
import { evolve, initialLedgerState, type LedgerState } from './ledger-state';
import { ledgerStateHash } from './ledger-state-hash';
import { walletCommandsFor } from './wallet-commands';

const FEES = '9000000001';
const assets: Record<string, AssetConfig> = { BTC: { asset: 'BTC', precision: 8 } };
const USER = { userId: '100', accountId: '1001' };
let n = 0;

function request(overrides: Partial<WithdrawalRequestFields> = {}): LedgerCommand {
  const payload: WithdrawalRequestFields = {
    ...USER,
    withdrawalId: String(5000 + ++n),
    clientOrderId: `w-${n}`,
    asset: 'BTC',
    chainType: 'BTC',
    address: 'bc1qdest',
    addressExt: '',
    quantity: '1',
    fee: '0.0005',
    ...overrides,
  };
  return ledgerCommandSchema.parse({ type: 'RequestWithdrawal', v: 1, id: `c${++n}`, ts: 1, payload });
}
const settle = (withdrawalId: string): LedgerCommand => ({
  type: 'SettleWithdrawal',
  v: 1,
  id: `c${++n}`,
  ts: 1,
  payload: { ...USER, withdrawalId },
});
const release = (withdrawalId: string): LedgerCommand => ({
  type: 'ReleaseWithdrawal',
  v: 1,
  id: `c${++n}`,
  ts: 1,
  payload: { ...USER, withdrawalId },
});

/** The ledger's withdrawal family over its decider and fold: holds, settlements, releases. */
describe('ledger withdrawals', () => {
  let state: LedgerState;
  let journal: LedgerJournalEvent[];
  let offset = 0;
  const run = (command: LedgerCommand): LedgerJournalEvent[] => {
    const at = offset++;
    const ctx: TradingContext = {
      now: 1_700_000_000_000,
      flowId: (k) => String(at * 16 + k + 1),
      asset: (a) => assets[a],
      symbol: () => undefined,
      feeAccountId: FEES,
    };
    const events = decide(command, state, ctx);
    for (const e of events) evolve(state, e);
    journal.push(...events);
    return events;
  };
  const balance = (accountId = USER.accountId) => {
    const b = state.accounts.get(accountId)?.balances.get('BTC');
    return { free: (b?.free ?? new Money(0)).toFixed(), locked: (b?.locked ?? new Money(0)).toFixed() };
  };
  const rejected = (events: LedgerJournalEvent[]) =>
    events[0]?.type === 'CommandRejected' ? events[0].payload.code : undefined;

  beforeEach(() => {
    state = initialLedgerState();
    journal = [];
    run({
      type: 'CreateUser',
      v: 1,
      id: `c${++n}`,
      ts: 1,
      payload: { userId: USER.userId, name: 'w', accountIds: [USER.accountId, '1002', '1003'] },
    });
    run({
      type: 'CreditDeposit',
      v: 1,
      id: `c${++n}`,
      ts: 1,
      payload: { ...USER, depositId: '1', asset: 'BTC', amount: '2' },
    });
  });

  it('holds quantity + fee in locked without a flow entry, and hands the withdrawal to the wallet', () => {
    const [held] = run(request({ quantity: '1.5' }));
    expect(held).toMatchObject({
      type: 'WithdrawalHeld',
      payload: { flows: [], balances: [{ accountId: USER.accountId, asset: 'BTC', free: '0.4995', locked: '1.5005' }] },
    });
    expect(balance()).toEqual({ free: '0.4995', locked: '1.5005' });
    const [track] = walletCommandsFor([held!]);
    expect(walletCommandSchema.parse(track)).toMatchObject({
      type: 'TrackWithdrawal',
      id: held!.id,
      payload: { quantity: '1.5', fee: '0.0005', heldAt: held!.ts },
    });
  });

  it('settles: WITHDRAW for the quantity, FEE to the fee account; a repeat changes nothing', () => {
    const [held] = run(request({ quantity: '1' }));
    const id = (held as Extract<LedgerJournalEvent, { type: 'WithdrawalHeld' }>).payload.withdrawal.withdrawalId;
    const [settled] = run(settle(id));
    expect(settled).toMatchObject({
      type: 'WithdrawalSettled',
      payload: {
        flows: [
          { accountId: USER.accountId, flowType: 'WITHDRAW', change: '-1', total: '1' },
          { accountId: USER.accountId, flowType: 'FEE', change: '-0.0005', total: '0.9995' },
          { accountId: FEES, flowType: 'FEE', change: '0.0005', total: '0.0005' },
        ],
      },
    });
    expect(balance()).toEqual({ free: '0.9995', locked: '0' });
    expect(balance(FEES)).toEqual({ free: '0.0005', locked: '0' });
    expect(run(settle(id))).toEqual([]);
    expect(rejected(run(release(id)))).toBe(-1001);
    expect(balance()).toEqual({ free: '0.9995', locked: '0' });
  });

  it('releases the hold back to free on rejection or failure; a repeat changes nothing and it can no longer settle', () => {
    const [held] = run(request({ quantity: '1' }));
    const id = (held as Extract<LedgerJournalEvent, { type: 'WithdrawalHeld' }>).payload.withdrawal.withdrawalId;
    expect(run(release(id))[0]).toMatchObject({
      type: 'WithdrawalReleased',
      payload: { flows: [], balances: [{ free: '2', locked: '0' }] },
    });
    expect(run(release(id))).toEqual([]);
    expect(rejected(run(settle(id)))).toBe(-1001);
    expect(balance()).toEqual({ free: '2', locked: '0' });
  });

  it('answers a repeated clientOrderId with the same parameters by naming the first withdrawal, and refuses other parameters with -1141', () => {
    const first = request({ clientOrderId: 'same', quantity: '0.5' });
    run(first);
    const again = request({ clientOrderId: 'same', quantity: '0.50' });
    expect(run(again)[0]).toMatchObject({
      type: 'WithdrawalRepeated',
      payload: { withdrawalId: (first.payload as WithdrawalRequestFields).withdrawalId },
    });
    expect(rejected(run(request({ clientOrderId: 'same', quantity: '0.6' })))).toBe(-1141);
    expect(rejected(run(request({ clientOrderId: 'same', quantity: '0.5', address: 'bc1qother' })))).toBe(-1141);
    expect(balance()).toEqual({ free: '1.4995', locked: '0.5005' });
  });

  it('refuses too little free balance (-1131), a blocked account (-2015), an unknown asset or account, and changes nothing', () => {
    const holdings = () => JSON.stringify([balance(), [...state.withdrawals.keys()]]);
    const before = holdings();
    expect(rejected(run(request({ quantity: '2' })))).toBe(-1131);
    expect(rejected(run(request({ asset: 'DOGE' })))).toBe(-1130);
    expect(rejected(run(request({ quantity: '0.000000001' })))).toBe(-1130);
    expect(rejected(run(request({ accountId: '9999' })))).toBe(-1130);
    expect(rejected(run(request({ internalTo: { userId: USER.userId, accountId: USER.accountId } })))).toBe(-1130);
    expect(rejected(run(settle('424242')))).toBe(-1001);
    run({ type: 'SetAccountFlags', v: 1, id: `c${++n}`, ts: 1, payload: { ...USER, canWithdraw: false } });
    expect(rejected(run(request({ quantity: '0.1' })))).toBe(-2015);
    expect(holdings()).toBe(before);
  });

  it('never lets two holds together overdraw the free balance', () => {
    const outcomes = Array.from({ length: 10 }, () => run(request({ quantity: '0.3' }))[0]!.type);
    expect(outcomes.filter((t) => t === 'WithdrawalHeld')).toHaveLength(6);
    expect(balance()).toEqual({ free: '0.197', locked: '1.803' });
  });

  it('folds to the same state hash when the journal is replayed', () => {
    const [held] = run(request());
    run(settle((held as Extract<LedgerJournalEvent, { type: 'WithdrawalHeld' }>).payload.withdrawal.withdrawalId));
    run(request({ clientOrderId: 'other', quantity: '0.2' }));
    expect(ledgerStateHash(journal.reduce(evolve, initialLedgerState()))).toBe(ledgerStateHash(state));
  });
});
