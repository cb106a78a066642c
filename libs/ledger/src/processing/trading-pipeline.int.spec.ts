import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { type LedgerCommand, type LedgerJournalEvent } from '@exchange/contracts';
import type { DataSource } from 'typeorm';
import { publishLedgerCommands, readLedgerEvents } from '../../../../test/support/ledger-events';
import { startTestExchange, type TestExchange } from '../../../../test/support/test-exchange';
import { waitFor } from '../../../../test/support/wait-for';
import { LEDGER_DATA_SOURCE, LEDGER_SCHEMA } from './ledger.tokens';

let n = 0;
function cmd(type: LedgerCommand['type'], payload: Record<string, unknown>): LedgerCommand {
  return { type, v: 1, id: `tp-${randomUUID()}-${++n}`, ts: Date.now(), payload } as LedgerCommand;
}

/**
 * The trading pipeline without the gateway: PlaceOrder on ledger.commands → the ledger reserves
 * and forwards SubmitOrder to order.commands → the engine matches and writes settlement legs back
 * to ledger.commands → the ledger settles with fees. Balances, fee account and order records in
 * PostgreSQL must come out exact.
 */
describe('trading pipeline: ledger ↔ matching engine', () => {
  let exchange: TestExchange;
  let db: DataSource;
  let schema: string;

  beforeAll(async () => {
    exchange = await startTestExchange({ onKafkaWhenAvailable: true });
    db = exchange.app.get(LEDGER_DATA_SOURCE);
    schema = exchange.app.get(LEDGER_SCHEMA);
  });
  afterAll(async () => exchange.close());

  const balance = async (accountId: string, asset: string): Promise<{ free: string; locked: string } | undefined> =>
    (
      await db.query(`SELECT free::text, locked::text FROM "${schema}".balances WHERE account_id = $1 AND asset = $2`, [
        accountId,
        asset,
      ])
    )[0];
  const eventsOf = async (commandId: string): Promise<LedgerJournalEvent[]> =>
    ((await readLedgerEvents(exchange.infrastructure.eventLog)) as LedgerJournalEvent[]).filter(
      (e) => e.payload.commandId === commandId,
    );

  it('reserves, matches, settles with maker and taker fees, and releases what is left', async () => {
    const log = exchange.infrastructure.eventLog;
    await publishLedgerCommands(log, [
      cmd('CreateUser', { userId: '501', name: 'seller', accountIds: ['5011', '5012', '5013'] }),
      cmd('CreateUser', { userId: '502', name: 'buyer', accountIds: ['5021', '5022', '5023'] }),
      cmd('CreditDeposit', { userId: '501', accountId: '5011', depositId: '1', asset: 'BTC', amount: '1' }),
      cmd('CreditDeposit', { userId: '502', accountId: '5021', depositId: '2', asset: 'USDT', amount: '100000' }),
    ] as never);
    const sell = cmd('PlaceOrder', {
      userId: '501',
      accountId: '5011',
      orderId: '9001',
      clientOrderId: 's1',
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '50000',
      quantity: '0.5',
      marketsVersion: 1,
    });
    await publishLedgerCommands(log, [sell] as never);
    await waitFor(async () => (await balance('5011', 'BTC'))?.locked === '0.5', 'the sell order to lock 0.5 BTC');

    const buy = cmd('PlaceOrder', {
      userId: '502',
      accountId: '5021',
      orderId: '9002',
      clientOrderId: 'b1',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '51000',
      quantity: '0.2',
      marketsVersion: 1,
    });
    await publishLedgerCommands(log, [buy] as never);
    await waitFor(
      async () => {
        const rows = await db.query(`SELECT status FROM "${schema}".orders WHERE order_id = 9002`);
        return rows[0]?.status === 'FILLED';
      },
      'the buy order to fill',
      30_000,
    );

    // The maker's leg is settled in the maker's partition, possibly a little later: wait for it.
    await waitFor(async () => (await balance('5011', 'BTC'))?.locked === '0.3', "the maker's leg to settle", 30_000);
    // The buyer paid 0.2 × 50,000 (the maker's price) and keeps 0.2 BTC minus the 0.1% taker fee.
    expect(await balance('5021', 'USDT')).toEqual({ free: '90000', locked: '0' });
    expect(await balance('5021', 'BTC')).toEqual({ free: '0.1998', locked: '0' });
    // The seller's order rests with 0.3 BTC left; it received 10,000 USDT minus the 0.1% maker fee.
    expect(await balance('5011', 'BTC')).toEqual({ free: '0.5', locked: '0.3' });
    expect(await balance('5011', 'USDT')).toEqual({ free: '9990', locked: '0' });
    const fees: { asset: string; total: string }[] = await db.query(
      `SELECT b.asset, sum(b.free)::text AS total FROM "${schema}".balances b JOIN "${schema}".accounts a ON a.account_id = b.account_id WHERE a.user_id = 0 GROUP BY b.asset ORDER BY 1`,
    );
    expect(fees).toEqual([
      { asset: 'BTC', total: '0.0002' },
      { asset: 'USDT', total: '10' },
    ]);
    const orders: { order_id: string; status: string; executed: string }[] = await db.query(
      `SELECT order_id::text, status, record->>'executedQty' AS executed FROM "${schema}".orders ORDER BY order_id`,
    );
    expect(orders).toEqual([
      { order_id: '9001', status: 'PARTIALLY_FILLED', executed: '0.2' },
      { order_id: '9002', status: 'FILLED', executed: '0.2' },
    ]);
    const trades: {
      account_id: string;
      record: { price: string; qty: string; isMaker: boolean; commission: string };
    }[] = await db.query(`SELECT account_id::text, record FROM "${schema}".trades ORDER BY account_id`);
    expect(
      trades.map((t) => [t.account_id, t.record.price, t.record.qty, t.record.isMaker, t.record.commission]),
    ).toEqual([
      ['5011', '50000', '0.2', true, '10'],
      ['5021', '50000', '0.2', false, '0.0002'],
    ]);
  }, 60_000);

  it('cancels a resting order and releases its reservation; a repeated client id is refused while it is open', async () => {
    const log = exchange.infrastructure.eventLog;
    const duplicate = cmd('PlaceOrder', {
      userId: '501',
      accountId: '5011',
      orderId: '9003',
      clientOrderId: 's1',
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '60000',
      quantity: '0.1',
      marketsVersion: 1,
    });
    await publishLedgerCommands(log, [duplicate] as never);
    await waitFor(async () => (await eventsOf(duplicate.id)).length > 0, 'the duplicate to be decided');
    expect((await eventsOf(duplicate.id))[0]).toMatchObject({ type: 'CommandRejected', payload: { code: -1141 } });

    const cancel = cmd('RequestCancel', { userId: '501', accountId: '5011', clientOrderId: 's1' });
    await publishLedgerCommands(log, [cancel] as never);
    await waitFor(
      async () =>
        (await db.query(`SELECT status FROM "${schema}".orders WHERE order_id = 9001`))[0]?.status === 'CANCELED',
      'the cancel to land',
      30_000,
    );
    expect(await balance('5011', 'BTC')).toEqual({ free: '0.8', locked: '0' });
  }, 60_000);
});
