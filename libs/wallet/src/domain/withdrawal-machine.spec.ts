import {
  type AssetWalletConfig,
  type WalletCommand,
  walletCommandSchema,
  type WalletEvent,
  type WithdrawalRecord,
  WithdrawalStatus as S,
  type WithdrawalStatusCode,
} from '@exchange/contracts';
import { decide, type WalletContext } from './decide';
import { effectsOf } from './wallet-effects';
import { evolve, initialWalletState, type WalletState } from './wallet-state';
import { canMove } from './withdrawal-machine';

const settings: AssetWalletConfig = {
  withdrawFee: '0.0005',
  minWithdraw: '0.001',
  confirmations: 3,
  autoApproveBelow: '0.1',
  chains: [],
};
const USER = '100';
const RECEIVER = { userId: '200', accountId: '2001' };
let n = 0;

const command = (type: WalletCommand['type'], payload: Record<string, unknown>): WalletCommand =>
  walletCommandSchema.parse({ type, v: 1, id: `c${++n}`, ts: 1, payload: { userId: USER, ...payload } });

/** Given/When/Then over the wallet's decider and fold, no mocks. */
class Wallet {
  readonly state: WalletState = initialWalletState();
  readonly journal: WalletEvent[] = [];
  private offset = 0;

  when(c: WalletCommand): WalletEvent {
    const at = this.offset++;
    const ctx: WalletContext = {
      now: 1_700_000_000_000 + at,
      newId: () => String(at * 16 + 1),
      settings: () => settings,
    };
    const event = decide(c, this.state, ctx);
    evolve(this.state, event);
    this.journal.push(event);
    return event;
  }

  track(quantity: string, extra: Record<string, unknown> = {}): string {
    const withdrawalId = String(7000 + ++n);
    this.when(
      command('TrackWithdrawal', {
        accountId: '1001',
        withdrawalId,
        clientOrderId: `w${n}`,
        asset: 'BTC',
        chainType: 'BTC',
        address: 'bc1qdest',
        addressExt: '',
        quantity,
        fee: '0.0005',
        heldAt: 1,
        ...extra,
      }),
    );
    return withdrawalId;
  }

  status(withdrawalId: string): WithdrawalStatusCode | undefined {
    return this.state.withdrawals.get(withdrawalId)?.status;
  }

  approve = (withdrawalId: string) => this.when(command('ApproveWithdrawal', { withdrawalId }));
  reject = (withdrawalId: string) => this.when(command('RejectWithdrawal', { withdrawalId, reason: 'no' }));
  mined = (withdrawalId: string, confirmations: number) =>
    this.when(command('ReportWithdrawal', { withdrawalId, stage: 'MINED', txid: 'tx-1', confirmations }));
  failed = (withdrawalId: string) =>
    this.when(command('ReportWithdrawal', { withdrawalId, stage: 'FAILED', reason: 'reverted' }));
}

const history = (w: WithdrawalRecord | undefined) => w?.history.map((t) => `${t.from}→${t.to}`);
const ledgerTypes = (e: WalletEvent) => effectsOf(e).ledger.map((c) => c.type);

describe('withdrawal state machine', () => {
  it('allows exactly 1→2, 1→3, 3→4, 3→5, 5→7, 5→8, 8→6, 8→7 (and 5→6 only for internal transfers)', () => {
    const all = [1, 2, 3, 4, 5, 6, 7, 8] as WithdrawalStatusCode[];
    const allowed = all.flatMap((from) => all.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`));
    expect(allowed).toEqual(['1→2', '1→3', '3→4', '3→5', '5→7', '5→8', '8→6', '8→7']);
    const internal = all.flatMap((from) => all.filter((to) => canMove(from, to, true)).map((to) => `${from}→${to}`));
    expect(internal).toEqual(['1→2', '1→3', '3→4', '3→5', '5→6']);
  });

  it('broker audit → platform audit → processing → mined → success, settling the hold once', () => {
    const w = new Wallet();
    const id = w.track('1');
    expect(w.status(id)).toBe(S.BROKER_AUDITING);
    expect(w.approve(id)).toMatchObject({ type: 'WithdrawalAdvanced', payload: { transitions: [{ from: 1, to: 3 }] } });
    const processing = w.approve(id);
    expect(effectsOf(processing).broadcast.map((b) => b.withdrawalId)).toEqual([id]);
    const mined = w.mined(id, 1);
    expect(mined.payload).toMatchObject({ withdrawal: { status: 8, txid: 'tx-1', confirmations: 1 } });
    expect(ledgerTypes(mined)).toEqual([]);
    expect(w.mined(id, 2).type).toBe('WithdrawalConfirmationsUpdated');
    const success = w.mined(id, 3);
    expect(success.payload).toMatchObject({ withdrawal: { status: 6, confirmations: 3 } });
    expect(ledgerTypes(success)).toEqual(['SettleWithdrawal']);
    expect(history(w.state.withdrawals.get(id))).toEqual(['0→1', '1→3', '3→5', '5→8', '8→6']);
  });

  it('mined with all confirmations at once records 5→8 and 8→6 in one event', () => {
    const w = new Wallet();
    const id = w.track('1');
    w.approve(id);
    w.approve(id);
    expect(w.mined(id, 3).payload).toMatchObject({
      transitions: [
        { from: 5, to: 8 },
        { from: 8, to: 6 },
      ],
    });
  });

  it.each([
    ['rejected at broker audit (1→2)', (w: Wallet, id: string) => w.reject(id), ['0→1', '1→2']],
    [
      'rejected at platform audit (3→4)',
      (w: Wallet, id: string) => (w.approve(id), w.reject(id)),
      ['0→1', '1→3', '3→4'],
    ],
    [
      'failed before mining (5→7)',
      (w: Wallet, id: string) => (w.approve(id), w.approve(id), w.failed(id)),
      ['0→1', '1→3', '3→5', '5→7'],
    ],
    [
      'failed after mining (8→7)',
      (w: Wallet, id: string) => (w.approve(id), w.approve(id), w.mined(id, 1), w.failed(id)),
      ['0→1', '1→3', '3→5', '5→8', '8→7'],
    ],
  ])('%s releases the hold', (_name, path, expected) => {
    const w = new Wallet();
    const id = w.track('1');
    const last = path(w, id);
    expect(history(w.state.withdrawals.get(id))).toEqual(expected);
    expect(ledgerTypes(last)).toEqual(['ReleaseWithdrawal']);
    expect(w.journal.flatMap(ledgerTypes)).toEqual(['ReleaseWithdrawal']);
  });

  it('approves automatically below the configured amount: 1→3→5 in one event, both steps recorded', () => {
    const w = new Wallet();
    const id = w.track('0.09');
    expect(w.journal[0]!.payload).toMatchObject({
      transitions: [
        { from: 0, to: 1 },
        { from: 1, to: 3 },
        { from: 3, to: 5 },
      ],
    });
    expect(w.status(id)).toBe(S.PROCESSING);
    expect(effectsOf(w.journal[0]!).broadcast).toHaveLength(1);
    expect(w.status(w.track('0.1'))).toBe(S.BROKER_AUDITING);
  });

  it('settles an internal transfer without the chain (1→3→5→6) and hands the receiver a deposit', () => {
    const w = new Wallet();
    const id = w.track('0.05', { internalTo: RECEIVER, fee: '0' });
    expect(history(w.state.withdrawals.get(id))).toEqual(['0→1', '1→3', '3→5', '5→6']);
    const effects = effectsOf(w.journal[0]!);
    expect(effects.broadcast).toEqual([]);
    expect(effects.ledger.map((c) => c.type)).toEqual(['SettleWithdrawal']);
    expect(effects.wallet).toEqual([
      expect.objectContaining({
        type: 'ReportDeposit',
        payload: expect.objectContaining({ ...RECEIVER, quantity: '0.05', txid: `internal-${id}` }),
      }),
    ]);
    const audited = w.track('5', { internalTo: RECEIVER, fee: '0' });
    w.approve(audited);
    expect(history(w.state.withdrawals.get(audited))).toEqual(['0→1', '1→3']);
    expect(w.approve(audited).payload).toMatchObject({
      transitions: [
        { from: 3, to: 5 },
        { from: 5, to: 6 },
      ],
    });
    expect(w.mined(audited, 3)).toMatchObject({ type: 'WalletCommandRejected', payload: { code: -1130 } });
  });

  it('refuses every command that is not a transition from where the withdrawal is, and changes nothing', () => {
    const states: Record<string, (w: Wallet) => string> = {
      '1': (w) => w.track('1'),
      '2': (w) => {
        const id = w.track('1');
        w.reject(id);
        return id;
      },
      '3': (w) => {
        const id = w.track('1');
        w.approve(id);
        return id;
      },
      '4': (w) => {
        const id = w.track('1');
        w.approve(id);
        w.reject(id);
        return id;
      },
      '5': (w) => {
        const id = w.track('1');
        w.approve(id);
        w.approve(id);
        return id;
      },
      '6': (w) => {
        const id = w.track('1');
        w.approve(id);
        w.approve(id);
        w.mined(id, 3);
        return id;
      },
      '7': (w) => {
        const id = w.track('1');
        w.approve(id);
        w.approve(id);
        w.failed(id);
        return id;
      },
      '8': (w) => {
        const id = w.track('1');
        w.approve(id);
        w.approve(id);
        w.mined(id, 1);
        return id;
      },
    };
    const acts: Record<string, (w: Wallet, id: string) => WalletEvent> = {
      approve: (w, id) => w.approve(id),
      reject: (w, id) => w.reject(id),
      mined: (w, id) => w.mined(id, 1),
      failed: (w, id) => w.failed(id),
    };
    const accepted: string[] = [];
    for (const [from, setUp] of Object.entries(states)) {
      for (const [act, run] of Object.entries(acts)) {
        const w = new Wallet();
        const id = setUp(w);
        const before = JSON.stringify(w.state.withdrawals.get(id));
        const event = run(w, id);
        if (event.type === 'WalletCommandRejected') {
          expect(event.payload.code).toBe(-1130);
          expect(JSON.stringify(w.state.withdrawals.get(id))).toBe(before);
          expect(effectsOf(event)).toEqual({ ledger: [], wallet: [], broadcast: [] });
        } else accepted.push(`${act}@${from}→${w.status(id)}`);
      }
    }
    expect(accepted.sort()).toEqual(
      ['approve@1→3', 'approve@3→5', 'failed@5→7', 'failed@8→7', 'mined@5→8', 'reject@1→2', 'reject@3→4'].sort(),
    );
  });

  it("refuses a command about an unknown withdrawal or another user's with -2013", () => {
    const w = new Wallet();
    const id = w.track('1');
    expect(w.approve('424242')).toMatchObject({ type: 'WalletCommandRejected', payload: { code: -2013 } });
    expect(
      w.when(
        walletCommandSchema.parse({
          type: 'ApproveWithdrawal',
          v: 1,
          id: 'x1',
          ts: 1,
          payload: { userId: '999', withdrawalId: id },
        }),
      ),
    ).toMatchObject({ payload: { code: -2013 } });
  });

  it('folds its journal back to the same state', () => {
    const w = new Wallet();
    const a = w.track('1');
    w.approve(a);
    w.track('0.01');
    const replayed = w.journal.reduce(evolve, initialWalletState());
    expect([...replayed.withdrawals.entries()]).toEqual([...w.state.withdrawals.entries()]);
  });
});

describe('deposits', () => {
  const report = (confirmations: number, txid = 'tx-d1') =>
    command('ReportDeposit', {
      accountId: '1001',
      asset: 'BTC',
      chainType: 'BTC',
      address: 'ex1abc',
      addressTag: '',
      fromAddress: 'bc1qsender',
      fromAddressTag: '',
      txid,
      quantity: '0.25',
      confirmations,
    });

  it('is credited once, by the report that reaches the required confirmations, never before', () => {
    const w = new Wallet();
    const first = w.when(report(1));
    expect(first.payload).toMatchObject({
      credited: false,
      repeated: false,
      deposit: { status: 'CONFIRMING', confirmations: 1, requiredConfirmations: 3 },
    });
    expect(effectsOf(first).ledger).toEqual([]);
    expect(w.when(report(1)).payload).toMatchObject({ repeated: true });
    const credited = w.when(report(3));
    expect(credited.payload).toMatchObject({
      credited: true,
      deposit: {
        status: 'CREDITED',
        depositId: (first.payload as { deposit: { depositId: string } }).deposit.depositId,
      },
    });
    expect(effectsOf(credited).ledger).toEqual([
      expect.objectContaining({
        type: 'CreditDeposit',
        payload: expect.objectContaining({ amount: '0.25', accountId: '1001' }),
      }),
    ]);
    for (const again of [report(3), report(10)]) {
      const event = w.when(again);
      expect(event.payload).toMatchObject({ repeated: true, credited: false });
      expect(effectsOf(event).ledger).toEqual([]);
    }
    expect(w.journal.flatMap((e) => effectsOf(e).ledger)).toHaveLength(1);
  });

  it('credits a deposit reported with all its confirmations at once; another txid is another deposit', () => {
    const w = new Wallet();
    expect(w.when(report(5, 'tx-a')).payload).toMatchObject({ credited: true });
    expect(w.when(report(5, 'tx-b')).payload).toMatchObject({ credited: true });
    expect(w.state.deposits.size).toBe(2);
  });
});

describe('address book', () => {
  const add = (entryId: string, address = 'bc1qdest') =>
    command('AddWithdrawalAddress', {
      accountId: '1001',
      entryId,
      tokenId: 'BTC',
      chainType: 'BTC',
      address,
      addressExt: '',
    });

  it('adds, refuses the same address twice, removes', () => {
    const w = new Wallet();
    expect(w.when(add('1'))).toMatchObject({
      type: 'WithdrawalAddressAdded',
      payload: { entry: { id: '1', address: 'bc1qdest' } },
    });
    expect(w.when(add('2'))).toMatchObject({
      type: 'WalletCommandRejected',
      payload: { msg: expect.stringContaining('entry 1') },
    });
    expect(w.when(command('RemoveWithdrawalAddress', { entryId: '1' }))).toMatchObject({
      type: 'WithdrawalAddressRemoved',
    });
    expect(w.when(command('RemoveWithdrawalAddress', { entryId: '1' }))).toMatchObject({
      type: 'WalletCommandRejected',
    });
    expect(w.when(add('3')).type).toBe('WithdrawalAddressAdded');
  });
});
