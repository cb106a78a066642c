import type { AssetConfig, LedgerAccountCommand, LedgerEvent } from '@exchange/contracts';
import { type DecisionContext, decide } from './decide';
import { evolve, initialLedgerState, type LedgerState } from './ledger-state';
import { ledgerStateHash } from './ledger-state-hash';

const assets: Record<string, AssetConfig> = {
  BTC: { asset: 'BTC', precision: 8 },
  USDT: { asset: 'USDT', precision: 6 },
};
let commandCounter = 0;

function ctx(offset: number): DecisionContext {
  return { now: 1_700_000_000_000 + offset, flowId: (k) => String(offset * 16 + k + 1), asset: (name) => assets[name] };
}

function command<T extends LedgerAccountCommand['type']>(
  type: T,
  payload: Extract<LedgerAccountCommand, { type: T }>['payload'],
): LedgerAccountCommand {
  return { type, v: 1, id: `c${++commandCounter}`, ts: 0, payload } as LedgerAccountCommand;
}

/** Given/When/Then over the decider: the state is the fold of the given events, no mocks. */
function run(
  commands: LedgerAccountCommand[],
  state: LedgerState = initialLedgerState(),
): { state: LedgerState; events: LedgerEvent[] } {
  const events: LedgerEvent[] = [];
  commands.forEach((c, i) => {
    for (const e of decide(c, state, ctx(i))) {
      evolve(state, e);
      events.push(e);
    }
  });
  return { state, events };
}

const alice = command('CreateUser', { userId: '100', name: 'alice', accountIds: ['1001', '1002', '1003'] });
const bob = command('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] });

describe('ledger decider', () => {
  it('creates a user with one main account per account type', () => {
    const { events } = run([alice]);
    expect(events).toEqual([
      {
        type: 'UserCreated',
        v: 1,
        id: `${alice.id}:0`,
        ts: 1_700_000_000_000,
        payload: {
          userId: '100',
          seq: 1,
          commandId: alice.id,
          name: 'alice',
          accounts: [
            { accountId: '1001', userId: '100', accountType: 1, accountIndex: 0, accountName: '' },
            { accountId: '1002', userId: '100', accountType: 2, accountIndex: 0, accountName: '' },
            { accountId: '1003', userId: '100', accountType: 3, accountIndex: 0, accountName: '' },
          ],
        },
      },
    ]);
  });

  it('rejects a second user with the same id', () => {
    const { events } = run([
      alice,
      command('CreateUser', { userId: '100', name: 'again', accountIds: ['9', '8', '7'] }),
    ]);
    expect(events[1]).toMatchObject({
      type: 'CommandRejected',
      payload: { code: -1130, commandType: 'CreateUser', seq: 2 },
    });
  });

  it('numbers sub-accounts per account type in creation order', () => {
    const { state } = run([
      alice,
      command('CreateSubAccount', { userId: '100', accountId: '1011', accountType: 1, accountName: 'bot' }),
      command('CreateSubAccount', { userId: '100', accountId: '1012', accountType: 3, accountName: 'futures' }),
      command('CreateSubAccount', { userId: '100', accountId: '1013', accountType: 1, accountName: 'bot2' }),
    ]);
    expect(['1011', '1012', '1013'].map((id) => state.accounts.get(id)!.record.accountIndex)).toEqual([1, 1, 2]);
    expect(state.users.get('100')!.accountIds).toEqual(['1001', '1002', '1003', '1011', '1012', '1013']);
  });

  it('credits a deposit as a DEPOSIT flow with the total after it', () => {
    const { events, state } = run([
      alice,
      command('CreditDeposit', { userId: '100', accountId: '1001', depositId: '5', asset: 'BTC', amount: '1.5' }),
    ]);
    expect(events[1]).toMatchObject({
      type: 'DepositCredited',
      payload: {
        amount: '1.5',
        flows: [{ flowId: '17', accountId: '1001', asset: 'BTC', flowType: 'DEPOSIT', change: '1.5', total: '1.5' }],
      },
    });
    expect(state.accounts.get('1001')!.balances.get('BTC')!.free.toFixed()).toBe('1.5');
  });

  it.each([
    ['more decimals than the asset allows', 'BTC', '0.000000001'],
    ['zero', 'BTC', '0'],
    ['an exponent', 'BTC', '1e3'],
    ['an unknown asset', 'DOGE', '1'],
  ])('rejects a deposit with %s (-1130), changing nothing', (_why, asset, amount) => {
    const { events, state } = run([
      alice,
      command('CreditDeposit', { userId: '100', accountId: '1001', depositId: '5', asset, amount }),
    ]);
    expect(events[1]).toMatchObject({ type: 'CommandRejected', payload: { code: -1130 } });
    expect(state.accounts.get('1001')!.balances.size).toBe(0);
  });

  it("moves funds between a user's own accounts as USER_ACCOUNT_TRANSFER, both legs", () => {
    const { events, state } = run([
      alice,
      command('CreditDeposit', { userId: '100', accountId: '1001', depositId: '5', asset: 'USDT', amount: '100' }),
      command('TransferFunds', {
        userId: '100',
        transferId: '6',
        fromAccountId: '1001',
        toAccountId: '1002',
        asset: 'USDT',
        amount: '30.25',
      }),
    ]);
    expect(events[2]).toMatchObject({
      type: 'FundsTransferred',
      payload: {
        flows: [
          { accountId: '1001', flowType: 'USER_ACCOUNT_TRANSFER', change: '-30.25', total: '69.75' },
          { accountId: '1002', flowType: 'USER_ACCOUNT_TRANSFER', change: '30.25', total: '30.25' },
        ],
      },
    });
    expect(state.accounts.get('1002')!.balances.get('USDT')!.free.toFixed()).toBe('30.25');
  });

  it('refuses to overdraw (-1131) and leaves both balances as they were', () => {
    const { events, state } = run([
      alice,
      command('CreditDeposit', { userId: '100', accountId: '1001', depositId: '5', asset: 'USDT', amount: '10' }),
      command('TransferFunds', {
        userId: '100',
        transferId: '6',
        fromAccountId: '1001',
        toAccountId: '1002',
        asset: 'USDT',
        amount: '10.000001',
      }),
    ]);
    expect(events[2]).toMatchObject({ type: 'CommandRejected', payload: { code: -1131 } });
    expect(state.accounts.get('1001')!.balances.get('USDT')!.free.toFixed()).toBe('10');
    expect(state.accounts.get('1003')!.balances.get('USDT')).toBeUndefined();
  });

  it('decides a refused transfer without touching the state: no zero balance appears for an asset never held', () => {
    const { events, state } = run([
      alice,
      command('TransferFunds', {
        userId: '100',
        transferId: '6',
        fromAccountId: '1001',
        toAccountId: '1002',
        asset: 'BTC',
        amount: '1',
      }),
    ]);
    expect(events[1]).toMatchObject({ type: 'CommandRejected', payload: { code: -1131 } });
    expect(state.accounts.get('1001')!.balances.has('BTC')).toBe(false);
  });

  it('refuses a destination account of another user (-1130): that is an internal withdrawal, not a transfer', () => {
    const { events } = run([
      alice,
      bob,
      command('CreditDeposit', { userId: '100', accountId: '1001', depositId: '5', asset: 'BTC', amount: '1' }),
      command('TransferFunds', {
        userId: '100',
        transferId: '6',
        fromAccountId: '1001',
        toAccountId: '2001',
        asset: 'BTC',
        amount: '0.1',
      }),
    ]);
    expect(events[3]).toMatchObject({ type: 'CommandRejected', payload: { code: -1130 } });
  });

  it('refuses an account of another user as the source', () => {
    const { events } = run([
      alice,
      bob,
      command('TransferFunds', {
        userId: '100',
        transferId: '6',
        fromAccountId: '2001',
        toAccountId: '1001',
        asset: 'BTC',
        amount: '1',
      }),
    ]);
    expect(events[2]).toMatchObject({ type: 'CommandRejected', payload: { code: -1130 } });
  });

  it('keeps unset flags and revokes keys once', () => {
    const { state, events } = run([
      alice,
      command('SetAccountFlags', { userId: '100', accountId: '1001', canTrade: false }),
      command('CreateApiKey', {
        userId: '100',
        accountId: '1001',
        apiKey: 'k1',
        secretCiphertext: 'x',
        permissions: ['read', 'read', 'trade'],
      }),
      command('RevokeApiKey', { userId: '100', apiKey: 'k1' }),
      command('RevokeApiKey', { userId: '100', apiKey: 'k1' }),
    ]);
    expect(state.accounts.get('1001')!.flags).toEqual({ canTrade: false, canWithdraw: true, canDeposit: true });
    expect(state.apiKeys.get('k1')).toMatchObject({ permissions: ['read', 'trade'], revoked: true });
    expect(events.map((e) => e.type)).toEqual(['UserCreated', 'AccountFlagsSet', 'ApiKeyCreated', 'ApiKeyRevoked']);
  });

  it('rebuilds the same state, by hash, from its journal alone', () => {
    const live = run([
      alice,
      bob,
      command('CreditDeposit', { userId: '100', accountId: '1001', depositId: '5', asset: 'BTC', amount: '2' }),
      command('TransferFunds', {
        userId: '100',
        transferId: '6',
        fromAccountId: '1001',
        toAccountId: '1003',
        asset: 'BTC',
        amount: '0.5',
      }),
      command('TransferFunds', {
        userId: '100',
        transferId: '7',
        fromAccountId: '1001',
        toAccountId: '1003',
        asset: 'BTC',
        amount: '5',
      }),
    ]);
    const rebuilt = live.events.reduce(evolve, initialLedgerState());
    expect(ledgerStateHash(rebuilt)).toBe(ledgerStateHash(live.state));
  });
});
