import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Topics, type WalletCommand, type WithdrawalRecord } from '@exchange/contracts';
import { type EventLog } from '@exchange/messaging';
import { openDataSource } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { readWalletEvents, requestHeldWithdrawal } from '../../../../test/support/wallet-events';
import { startTestExchange, type TestExchange } from '../../../../test/support/test-exchange';
import { waitFor } from '../../../../test/support/wait-for';
import { WALLET_DATA_SOURCE, WALLET_SCHEMA } from './wallet.tokens';

let n = 0;
const id = () => `wp-${randomUUID()}-${++n}`;
const walletCommand = (type: WalletCommand['type'], payload: Record<string, unknown>, commandId = id()) =>
  ({ type, v: 1, id: commandId, ts: Date.now(), payload }) as WalletCommand;

async function publishWallet(log: EventLog, commands: WalletCommand[]): Promise<void> {
  await log.publish(
    commands.map((c) => ({ topic: Topics.walletCommands.name, key: c.payload.userId, value: JSON.stringify(c) })),
  );
}

/**
 * The wallet without the gateway, on the event log (CI's Kafka when set) and PostgreSQL: the
 * ledger hands it a held withdrawal through its outbox, chain reports and redelivered commands are
 * decided once (its rebuild from wallet.events: tools/replay/wallet).
 */
describe('wallet pipeline on the event log and PostgreSQL', () => {
  let exchange: TestExchange;
  let db: DataSource;
  let schema: string;
  const withdrawal = async (withdrawalId: string): Promise<WithdrawalRecord | undefined> =>
    (await db.query(`SELECT record FROM "${schema}".withdrawals WHERE withdrawal_id = $1`, [withdrawalId]))[0]?.record;

  beforeAll(async () => {
    exchange = await startTestExchange({ onKafkaWhenAvailable: true });
    db = exchange.app.get(WALLET_DATA_SOURCE);
    schema = exchange.app.get(WALLET_SCHEMA);
  }, 60_000);
  afterAll(async () => exchange.close(), 60_000);

  it('tracks what the ledger held, decides each command id once, and settles through the ledger', async () => {
    const log = exchange.infrastructure.eventLog;
    const user = { userId: '71', accountId: '7101' };
    await requestHeldWithdrawal(log, user, '710001');
    await waitFor(async () => (await withdrawal('710001'))?.status === 1, 'the wallet to track the held withdrawal');

    const approve = walletCommand('ApproveWithdrawal', { userId: '71', withdrawalId: '710001' });
    await publishWallet(log, [
      approve,
      approve,
      walletCommand('ApproveWithdrawal', { userId: '71', withdrawalId: '710001' }),
    ]);
    await log.publish([{ topic: Topics.walletCommands.name, key: '71', value: '{"not":"a command"}' }]);
    const mined = walletCommand('ReportWithdrawal', {
      userId: '71',
      withdrawalId: '710001',
      stage: 'MINED',
      txid: '0xtx',
      confirmations: 12,
    });
    await publishWallet(log, [mined]);
    await waitFor(async () => (await withdrawal('710001'))?.status === 6, 'the withdrawal to succeed');
    expect((await withdrawal('710001'))!.history.map((t) => `${t.from}→${t.to}`)).toEqual([
      '0→1',
      '1→3',
      '3→5',
      '5→8',
      '8→6',
    ]);
    // The tables commit before the relay publishes: wait for the journal itself.
    const eventsOf71 = async () => (await readWalletEvents(log)).filter((e) => e.payload.userId === '71');
    await waitFor(async () => (await eventsOf71()).length >= 4, 'the wallet events to be published');
    const events = await eventsOf71();
    expect(events.map((e) => e.type)).toEqual([
      'WithdrawalTracked',
      'WithdrawalAdvanced',
      'WithdrawalAdvanced',
      'WithdrawalAdvanced',
    ]);

    const ledgerSchema = schema.replace(/wallet$/, 'ledger');
    const ledgerDb = await openDataSource({
      url: exchange.infrastructure.database!.url,
      schema: ledgerSchema,
      entities: [],
      migrations: [],
      readOnly: true,
    });
    try {
      await waitFor(
        async () =>
          (await ledgerDb.query(`SELECT status FROM "${ledgerSchema}".withdrawals WHERE withdrawal_id = 710001`))[0]
            ?.status === 'SETTLED',
        'the ledger to settle',
      );
      const [b] = await ledgerDb.query(
        `SELECT free::text, locked::text FROM "${ledgerSchema}".balances WHERE account_id = 7101 AND asset = 'ETH'`,
      );
      expect(b).toEqual({ free: '6.995', locked: '0' });
    } finally {
      await ledgerDb.destroy();
    }
  });
});
