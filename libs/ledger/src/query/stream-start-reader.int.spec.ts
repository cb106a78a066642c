import { FEES, lastSeqOf, ledgerCommand as cmd, ledgerJournal, ReadModelSchema } from '../../../../test/support/read-model-schema';
import type { LedgerInput, LedgerJournalEvent } from '@exchange/contracts';
import { StreamStartReader } from './stream-start-reader';

/** bob's SELL rests, alice's BUY takes it in one trade. */
function trade(sell: string, buy: string): LedgerInput[] {
  const order = { symbol: 'BTCUSDT', type: 'LIMIT', timeInForce: 'GTC', marketsVersion: 1, price: '29500', quantity: '0.1' } as const;
  const fill = { symbol: 'BTCUSDT', tradeId: '1', price: '29500', qty: '0.1', quoteQty: '2950' };
  const bob = { userId: '200', accountId: '2001' };
  const alice = { userId: '100', accountId: '1001' };
  return [
    cmd('PlaceOrder', { ...bob, ...order, orderId: sell, clientOrderId: 'b', side: 'SELL' }),
    cmd('ApplyOrderOutcome', { ...bob, symbol: 'BTCUSDT', orderId: sell, side: 'SELL', outcome: 'ACCEPTED', remainingQty: '0.1' }),
    cmd('PlaceOrder', { ...alice, ...order, orderId: buy, clientOrderId: 'a', side: 'BUY' }),
    cmd('SettleTradeLeg', { ...alice, ...fill, orderId: buy, side: 'BUY', isMaker: false }),
    cmd('SettleTradeLeg', { ...bob, ...fill, orderId: sell, side: 'SELL', isMaker: true }),
  ];
}

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
      cmd('CreateApiKey', { userId: '100', accountId: '1001', apiKey: 'k1', secretCiphertext: 'x', permissions: ['read'] }),
      cmd('CreateApiKey', { userId: '100', accountId: '1001', apiKey: 'k2', secretCiphertext: 'x', permissions: ['read'] }),
      cmd('RevokeApiKey', { userId: '100', apiKey: 'k2' }),
      cmd('CreateUser', { userId: '200', name: 'bob', accountIds: ['2001', '2002', '2003'] }),
      cmd('CreditDeposit', { userId: '200', accountId: '2001', depositId: '1', asset: 'BTC', amount: '1' }),
      // A trade, whose fees open the fee account (of no user: it has no stream).
      cmd('CreditDeposit', { userId: '100', accountId: '1001', depositId: '2', asset: 'USDT', amount: '10000' }),
      ...trade('7', '8'),
    ]);
    await tables.projectLedger(journal);
  });
  afterAll(async () => tables.close());

  it('starts an account\'s stream at its flags and its user\'s sequence', async () => {
    expect(await reader.start('1003')).toEqual({ userId: '100', flags: { canTrade: false, canWithdraw: true, canDeposit: true }, seq: lastSeqOf(journal, '100') });
    expect(await reader.start('2001')).toEqual({ userId: '200', flags: { canTrade: true, canWithdraw: true, canDeposit: true }, seq: lastSeqOf(journal, '200') });
    expect(await reader.start('999')).toBeUndefined();
  });

  it('reads every user account\'s start in one statement, and no fee account', async () => {
    const starts = await reader.everyStart();
    expect([...starts.keys()].sort()).toEqual(['1001', '1002', '1003', '2001', '2002', '2003']);
    expect(starts.get('1002')).toEqual({ userId: '100', flags: { canTrade: true, canWithdraw: true, canDeposit: true }, seq: lastSeqOf(journal, '100') });
    expect(starts.has(FEES)).toBe(false);
  });

  it('tells a live API key from a revoked or unknown one', async () => {
    expect(await reader.isApiKeyLive('k1')).toBe(true);
    expect(await reader.isApiKeyLive('k2')).toBe(false);
    expect(await reader.isApiKeyLive('k3')).toBe(false);
  });
});
