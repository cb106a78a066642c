import {
  FEES,
  lastSeqOf,
  ledgerCommand as cmd,
  ledgerJournal,
  ReadModelSchema,
} from '../../../../test/support/read-model-schema';
import type { LedgerCommand, LedgerJournalEvent } from '@exchange/contracts';
import { StreamStartReader } from './stream-start-reader';

/** bob's SELL rests, alice's BUY takes it in one trade. */
function trade(sell: string, buy: string): LedgerCommand[] {
  const order = {
    symbol: 'BTCUSDT',
    type: 'LIMIT',
    timeInForce: 'GTC',
    marketsVersion: 1,
    price: '29500',
    quantity: '0.1',
  } as const;
  const fill = { symbol: 'BTCUSDT', tradeId: '1', price: '29500', qty: '0.1', quoteQty: '2950' };
  const bob = { userId: '200', accountId: '2001' };
  const alice = { userId: '100', accountId: '1001' };
  return [
    cmd('PlaceOrder', { ...bob, ...order, orderId: sell, clientOrderId: 'b', side: 'SELL' }),
    cmd('ApplyOrderOutcome', {
      ...bob,
      symbol: 'BTCUSDT',
      orderId: sell,
      side: 'SELL',
      outcome: 'ACCEPTED',
      remainingQty: '0.1',
    }),
    cmd('PlaceOrder', { ...alice, ...order, orderId: buy, clientOrderId: 'a', side: 'BUY' }),
    cmd('SettleTradeLeg', { ...alice, ...fill, orderId: buy, matchOrderId: sell, side: 'BUY', isMaker: false }),
    cmd('SettleTradeLeg', { ...bob, ...fill, orderId: sell, matchOrderId: buy, side: 'SELL', isMaker: true }),
  ];
}

const all = { canTrade: true, canWithdraw: true, canDeposit: true };
const SWAP = 'BTC-SWAP-USDT';
const contractOrder = (orderId: string, side: 'BUY_OPEN' | 'SELL_OPEN', quantity: string, price: string) => ({
  userId: '200',
  accountId: '2003',
  orderId,
  symbol: SWAP,
  side,
  price,
  quantity,
  leverage: '10',
  marketsVersion: 1,
  clientOrderId: `c${orderId}`,
});

/** The ledger's migrations, its projection of decided events and StreamStartReader, together on PostgreSQL. */
describe('StreamStartReader on the tables the ledger projects', () => {
  let tables: ReadModelSchema;
  let reader: StreamStartReader;
  let journal: LedgerJournalEvent[];

  beforeAll(async () => {
    tables = await ReadModelSchema.open('ledger');
    reader = new StreamStartReader(tables.queries);
    journal = ledgerJournal([
      cmd('CreateUser', { userId: '100', name: 'alice', accountIds: ['1001', '1002', '1003'] }),
      cmd('SetAccountFlags', { userId: '100', accountId: '1003', canTrade: false }),
      cmd('CreateApiKey', {
        userId: '100',
        accountId: '1001',
        apiKey: 'k1',
        secretCiphertext: 'x',
        permissions: ['read'],
      }),
      cmd('CreateApiKey', {
        userId: '100',
        accountId: '1001',
        apiKey: 'k2',
        secretCiphertext: 'x',
        permissions: ['read'],
      }),
      cmd('RevokeApiKey', { userId: '100', apiKey: 'k2' }),
      cmd('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] }),
      cmd('CreateSubAccount', { userId: '200', accountId: '2011', accountType: 1, accountName: 'bot' }),
      cmd('CreateSubAccount', { userId: '200', accountId: '2013', accountType: 3, accountName: 'perps' }),
      cmd('CreditDeposit', { userId: '200', accountId: '2001', depositId: '1', asset: 'BTC', amount: '1' }),
      // A trade, whose fees open the fee account (of no user: it has no stream).
      cmd('CreditDeposit', { userId: '100', accountId: '1001', depositId: '2', asset: 'USDT', amount: '10000' }),
      ...trade('7', '8'),
      // Bob's contracts account: an order filled in part, one untouched, one canceled.
      cmd('CreditDeposit', { userId: '200', accountId: '2001', depositId: '3', asset: 'USDT', amount: '10000' }),
      cmd('TransferFunds', {
        userId: '200',
        transferId: '4',
        fromAccountId: '2001',
        toAccountId: '2003',
        asset: 'USDT',
        amount: '5000',
      }),
      cmd('PlaceContractOrder', contractOrder('31', 'BUY_OPEN', '10', '30000')),
      cmd('SettleTradeLeg', {
        userId: '200',
        accountId: '2003',
        symbol: SWAP,
        orderId: '31',
        matchOrderId: '0',
        tradeId: '41',
        side: 'BUY',
        price: '30000',
        qty: '4',
        quoteQty: '0',
        isMaker: true,
      }),
      cmd('PlaceContractOrder', contractOrder('32', 'SELL_OPEN', '3', '31000')),
      cmd('PlaceContractOrder', contractOrder('33', 'SELL_OPEN', '1', '32000')),
      cmd('ApplyOrderOutcome', {
        userId: '200',
        accountId: '2003',
        symbol: SWAP,
        orderId: '33',
        side: 'SELL',
        outcome: 'CANCELED',
        reason: 'USER',
      }),
    ]);
    // One batch per event, as a busy projector may cut them: an order's later events are merged into its row.
    for (const event of journal) await tables.projectLedger([event]);
  });
  afterAll(async () => tables.close());

  it("starts an account's stream at its flags and its user's sequence", async () => {
    expect(await reader.start('1002')).toEqual({ userId: '100', flags: all, seq: lastSeqOf(journal, '100') });
    expect(await reader.start('2011')).toEqual({ userId: '200', flags: all, seq: lastSeqOf(journal, '200') });
    expect(await reader.start('999')).toBeUndefined();
  });

  it("carries the main contracts account on the main account's stream, a contracts account on its own, none on other accounts", async () => {
    const aliceContracts = { accountId: '1003', flags: { ...all, canTrade: false } };
    expect(await reader.start('1001')).toEqual({
      userId: '100',
      flags: all,
      seq: lastSeqOf(journal, '100'),
      contracts: aliceContracts,
    });
    expect(await reader.start('1003')).toEqual({
      userId: '100',
      flags: aliceContracts.flags,
      seq: lastSeqOf(journal, '100'),
      contracts: aliceContracts,
    });
    expect((await reader.start('2001'))?.contracts).toEqual({ accountId: '2003', flags: all });
    expect((await reader.start('2013'))?.contracts).toEqual({ accountId: '2013', flags: all });
    for (const plain of ['1002', '2002', '2011']) expect(await reader.start(plain)).not.toHaveProperty('contracts');
  });

  it("reads a spot account's open orders whole from the rows the events' changes were merged into, as of its user's sequence", async () => {
    const open = await reader.openOrders('2001');
    expect(open.seq).toBe(lastSeqOf(journal, '200'));
    expect(open.orders).toEqual([
      expect.objectContaining({
        orderId: '7',
        clientOrderId: 'b',
        userId: '200',
        side: 'SELL',
        price: '29500',
        origQty: '0.1',
        executedQty: '0.1',
        cummulativeQuoteQty: '2950',
        status: 'PARTIALLY_FILLED',
        reservationLeft: '0',
      }),
    ]);
    expect(await reader.openOrders('1002')).toEqual({ seq: lastSeqOf(journal, '100'), orders: [] });
  });

  it("reads every user account's start in one statement, and no fee account", async () => {
    const starts = await reader.everyStart();
    expect([...starts.keys()].sort()).toEqual(['1001', '1002', '1003', '2001', '2002', '2003', '2011', '2013']);
    expect(starts.get('1002')).toEqual({ userId: '100', flags: all, seq: lastSeqOf(journal, '100') });
    expect(starts.get('2001')?.contracts?.accountId).toBe('2003');
    expect(starts.has(FEES)).toBe(false);
  });

  it("lists a contracts account's open orders with what their trades add up to, as of the user's sequence", async () => {
    const open = await reader.openContractOrders('2003');
    expect(open.seq).toBe(lastSeqOf(journal, '200'));
    expect(
      open.orders.map((o) => [
        o.record.orderId,
        o.record.clientOrderId,
        o.record.status,
        o.record.executedQty,
        o.value,
      ]),
    ).toEqual([
      ['31', 'c31', 'PARTIALLY_FILLED', '4', '120000'],
      ['32', 'c32', 'NEW', '0', '0'],
    ]);
    expect(await reader.openContractOrders('1003')).toEqual({ seq: lastSeqOf(journal, '100'), orders: [] });
  });

  it('tells a live API key from a revoked or unknown one', async () => {
    expect(await reader.isApiKeyLive('k1')).toBe(true);
    expect(await reader.isApiKeyLive('k2')).toBe(false);
    expect(await reader.isApiKeyLive('k3')).toBe(false);
  });
});
