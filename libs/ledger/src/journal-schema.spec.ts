import {
  type ContractEvent,
  contractJournalEventSchemas,
  isContractJournalEvent,
  type LedgerCommand,
  type LedgerJournalEvent,
  ledgerJournalEventSchema,
  parseLedgerEvent,
} from '@exchange/contracts';
import { ledgerCommand as cmd, ledgerJournal, T0 } from '../../../test/support/read-model-schema';
import { everyContractEvent } from './domain/contracts/contract-journal.fixtures';

const ALICE = { userId: '100', accountId: '1001' };
const BOB = { userId: '200', accountId: '2001' };
const withdrawal = (withdrawalId: string): LedgerCommand =>
  cmd('RequestWithdrawal', {
    ...BOB,
    withdrawalId,
    clientOrderId: `w${withdrawalId}`,
    asset: 'BTC',
    chainType: 'BTC',
    address: 'bc1qdest',
    addressExt: '',
    quantity: '0.1',
    fee: '0.0005',
  });

/** Every kind of event the decider journals, from accepted commands. */
const journal = ledgerJournal([
  cmd('CreateUser', { userId: '100', name: 'alice', accountIds: ['1001', '1002', '1003'] }),
  cmd('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] }),
  cmd('CreateSubAccount', { userId: '100', accountId: '1011', accountType: 1, accountName: 'bot' }),
  cmd('CreateApiKey', { ...ALICE, apiKey: 'k1', secretCiphertext: 'sealed', permissions: ['read', 'trade'] }),
  cmd('RevokeApiKey', { userId: '100', apiKey: 'k1' }),
  cmd('SetAccountFlags', { ...ALICE, canWithdraw: false }),
  cmd('CreditDeposit', { ...ALICE, depositId: '1', asset: 'USDT', amount: '10000' }),
  cmd('CreditDeposit', { ...BOB, depositId: '2', asset: 'BTC', amount: '1' }),
  cmd('TransferFunds', {
    userId: '100',
    transferId: '3',
    fromAccountId: '1001',
    toAccountId: '1011',
    asset: 'USDT',
    amount: '1',
  }),
  cmd('PlaceOrder', {
    ...BOB,
    orderId: '7',
    clientOrderId: 'b7',
    symbol: 'BTCUSDT',
    type: 'LIMIT',
    timeInForce: 'GTC',
    marketsVersion: 1,
    side: 'SELL',
    price: '29500',
    quantity: '0.2',
  }),
  cmd('ApplyOrderOutcome', {
    ...BOB,
    symbol: 'BTCUSDT',
    orderId: '7',
    side: 'SELL',
    outcome: 'ACCEPTED',
    remainingQty: '0.2',
  }),
  cmd('ApplyOrderOutcome', {
    ...BOB,
    symbol: 'BTCUSDT',
    orderId: '7',
    side: 'SELL',
    outcome: 'RESTED',
    remainingQty: '0.2',
  }),
  cmd('PlaceOrder', {
    ...ALICE,
    orderId: '8',
    clientOrderId: 'a8',
    symbol: 'BTCUSDT',
    type: 'LIMIT',
    timeInForce: 'GTC',
    marketsVersion: 1,
    side: 'BUY',
    price: '30000',
    quantity: '0.1',
  }),
  cmd('SettleTradeLeg', {
    ...ALICE,
    symbol: 'BTCUSDT',
    orderId: '8',
    matchOrderId: '7',
    side: 'BUY',
    tradeId: '1',
    price: '29500',
    qty: '0.1',
    quoteQty: '2950',
    isMaker: false,
  }),
  cmd('ApplyOrderOutcome', { ...ALICE, symbol: 'BTCUSDT', orderId: '8', side: 'BUY', outcome: 'FILLED' }),
  cmd('RequestCancel', { ...BOB, orderId: '7' }),
  cmd('ApplyOrderOutcome', {
    ...BOB,
    symbol: 'BTCUSDT',
    orderId: '7',
    side: 'SELL',
    outcome: 'CANCELED',
    reason: 'USER',
    remainingQty: '0.2',
  }),
  withdrawal('5001'),
  withdrawal('5001'),
  cmd('SettleWithdrawal', { ...BOB, withdrawalId: '5001' }),
  withdrawal('5002'),
  cmd('ReleaseWithdrawal', { ...BOB, withdrawalId: '5002' }),
  // The contract order notices, which only the ledger's routing journals.
  cmd('TransferFunds', {
    userId: '100',
    transferId: '4',
    fromAccountId: '1001',
    toAccountId: '1003',
    asset: 'USDT',
    amount: '1000',
  }),
  cmd('PlaceContractOrder', {
    userId: '100',
    accountId: '1003',
    orderId: '9',
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY_OPEN',
    price: '30000',
    quantity: '10',
    leverage: '10',
    marketsVersion: 1,
  }),
  cmd('ApplyOrderOutcome', {
    userId: '100',
    accountId: '1003',
    symbol: 'BTC-SWAP-USDT',
    orderId: '9',
    side: 'BUY',
    outcome: 'RESTED',
    remainingQty: '10',
  }),
  cmd('RequestContractCancel', { userId: '100', accountId: '1003', orderId: '9' }),
]);

/** The contracts decider's events in the journal's envelope, as decide wraps them. */
const enveloped = (events: readonly ContractEvent[]): LedgerJournalEvent[] =>
  events.map(
    (e, i) =>
      ({
        type: e.type,
        v: 1,
        id: `s${i}:0`,
        ts: T0 + i,
        payload: { ...e.payload, userId: '1', seq: i + 1, commandId: `s${i}` },
      }) as LedgerJournalEvent,
  );
const contractJournal = enveloped(everyContractEvent());

describe('the journal against the schema its consumers check it with', () => {
  it('covers every spot event type but CommandRejected, and every contracts event type', () => {
    expect(new Set(journal.filter((e) => !isContractJournalEvent(e)).map((e) => e.type)).size).toBe(15);
    expect(
      new Set([...journal, ...contractJournal].filter((e) => isContractJournalEvent(e)).map((e) => e.type)),
    ).toEqual(new Set(Object.keys(contractJournalEventSchemas)));
  });

  it.each([...journal, ...contractJournal].map((e) => [e.type, e.id, e] as const))(
    'reads %s %s back as it was written',
    (_type, _id, event) => {
      expect(parseLedgerEvent(JSON.stringify(event))).toEqual(event);
    },
  );

  it("reads a FundingSettled back with the clearing account it moved (a negative balance: it nets the partitions' funding)", () => {
    const settled = contractJournal.find((e) => e.type === 'FundingSettled')!;
    const clearing = { accountId: '204', free: '-0.03', locked: '0', positionMargin: '0' };
    const moved = { ...settled, payload: { ...settled.payload, clearing } } as LedgerJournalEvent;
    expect(parseLedgerEvent(JSON.stringify(moved))).toEqual(moved);
  });

  it('reads a rejection, and refuses what is not an event of the journal', () => {
    const rejected = {
      type: 'CommandRejected',
      v: 1,
      id: 'c1:0',
      ts: 1,
      payload: {
        userId: '1',
        seq: 2,
        commandId: 'c1',
        commandType: 'TransferFunds',
        code: -1131,
        msg: 'Account has insufficient balance.',
      },
    };
    expect(parseLedgerEvent(JSON.stringify(rejected))).toEqual(rejected);
    expect(parseLedgerEvent('not json')).toBeUndefined();
    expect(parseLedgerEvent(JSON.stringify({ ...rejected, type: 'AccountVanished' }))).toBeUndefined();
    expect(
      ledgerJournalEventSchema.safeParse({ ...rejected, payload: { ...rejected.payload, seq: '2' } }).success,
    ).toBe(false);
    const [placed] = journal.filter((e) => e.type === 'OrderPlaced');
    expect(
      ledgerJournalEventSchema.safeParse({
        ...placed,
        payload: { ...placed!.payload, order: { ...(placed!.payload as { order: object }).order, side: 'LOST' } },
      }).success,
    ).toBe(false);
    const filled = contractJournal.find((e) => e.type === 'ContractOrderFilled')!;
    expect(
      ledgerJournalEventSchema.safeParse({ ...filled, payload: { ...filled.payload, pnl: '-3.75' } }).success,
    ).toBe(true);
    expect(
      ledgerJournalEventSchema.safeParse({ ...filled, payload: { ...filled.payload, price: '1e-7' } }).success,
    ).toBe(false);
    expect(ledgerJournalEventSchema.safeParse({ ...filled, payload: { ...filled.payload, quantity: 5 } }).success).toBe(
      false,
    );
  });
});
