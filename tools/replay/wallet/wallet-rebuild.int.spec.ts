import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Topics, type WalletCommand } from '@exchange/contracts';
import { WALLET_DATA_SOURCE, WALLET_SCHEMA } from '@exchange/wallet';
import type { DataSource } from 'typeorm';
import { checkNamed, replayContextOf } from '../../../test/support/replay-context';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';
import { readWalletRecords, requestHeldWithdrawal } from '../../../test/support/wallet-events';
import { walletReplay } from './wallet-rebuild';

const id = (): string => `wr-${randomUUID()}`;
const walletCommand = (type: WalletCommand['type'], payload: Record<string, unknown>): WalletCommand =>
  ({ type, v: 1, id: id(), ts: Date.now(), payload }) as WalletCommand;
const options = { switch: false, force: false };
const mined = (): WalletCommand =>
  walletCommand('ReportWithdrawal', {
    userId: '81',
    withdrawalId: '810001',
    stage: 'MINED',
    txid: '0xtx',
    confirmations: 12,
  });

/** `npm run replay -- wallet` against a wallet that decided a withdrawal's whole life, deposits and address-book changes. */
describe('wallet replay', () => {
  let exchange: TestExchange;
  let db: DataSource;
  let schema: string;
  const status = async (withdrawalId: string): Promise<number | undefined> =>
    (await db.query(`SELECT status FROM "${schema}".withdrawals WHERE withdrawal_id = $1`, [withdrawalId]))[0]?.status;

  beforeAll(async () => {
    exchange = await startTestExchange({ onKafkaWhenAvailable: true });
    db = exchange.app.get(WALLET_DATA_SOURCE);
    schema = exchange.app.get(WALLET_SCHEMA);
    const log = exchange.infrastructure.eventLog;
    const user = { userId: '81', accountId: '8101' };
    await requestHeldWithdrawal(log, user, '810001');
    await waitFor(async () => (await status('810001')) === 1, 'the wallet to track the held withdrawal');
    await log.publish(
      [
        // Before the chain has it: refused, and the refusal is journaled too.
        mined(),
        // Broker audit, then platform audit.
        walletCommand('ApproveWithdrawal', { userId: '81', withdrawalId: '810001' }),
        walletCommand('ApproveWithdrawal', { userId: '81', withdrawalId: '810001' }),
        walletCommand('ReportDeposit', {
          ...user,
          asset: 'BTC',
          chainType: 'BTC',
          address: 'ex1a',
          addressTag: '',
          fromAddress: 'x',
          fromAddressTag: '',
          txid: 't1',
          quantity: '1',
          confirmations: 5,
        }),
        walletCommand('AddWithdrawalAddress', {
          ...user,
          entryId: '9801',
          tokenId: 'BTC',
          chainType: 'BTC',
          address: 'bc1q',
          addressExt: '',
        }),
        walletCommand('AddWithdrawalAddress', {
          ...user,
          entryId: '9802',
          tokenId: 'ETH',
          chainType: 'ETH',
          address: '0x1',
          addressExt: '',
        }),
        walletCommand('RemoveWithdrawalAddress', { userId: '81', entryId: '9801' }),
      ].map((c) => ({ topic: Topics.walletCommands.name, key: '81', value: JSON.stringify(c) })),
    );
    await waitFor(async () => (await status('810001')) === 5, 'the approved withdrawal to reach the chain');
    await log.publish([{ topic: Topics.walletCommands.name, key: '81', value: JSON.stringify(mined()) }]);
    await waitFor(
      async () =>
        (await readWalletRecords(log)).some((e) => e.event.type === 'WithdrawalAddressRemoved') &&
        (await status('810001')) === 6,
      'every command decided and published',
    );
  }, 90_000);
  afterAll(async () => exchange.close(), 60_000);

  it('rebuilds the wallet tables from wallet.events to the live state hash, ignoring an event published twice', async () => {
    const log = exchange.infrastructure.eventLog;
    // The relay publishes at least once: the withdrawal's first event again, after its last one.
    const tracked = (await readWalletRecords(log)).find((e) => e.event.type === 'WithdrawalTracked')!;
    await log.publish([{ topic: Topics.walletEvents.name, key: tracked.key, value: tracked.value }]);
    const { ctx } = replayContextOf(exchange.infrastructure);
    const result = await walletReplay.rebuild(ctx, options);
    expect(result.location).toBe(`${schema}_rebuilt`);
    expect(checkNamed(result.checks, 'state hash').detail).toMatch(/^rebuilt ([0-9a-f]{64}) live \1$/);
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.checks.map((c) => `${c.name}: ${c.detail}`)).toEqual(
      expect.arrayContaining([
        'rows of withdrawals: rebuilt 1 live 1',
        'rows of deposits: rebuilt 1 live 1',
        'rows of withdrawal_addresses: rebuilt 1 live 1',
      ]),
    );
    expect(result.events).toBeGreaterThanOrEqual(8);
  });

  it('tells a damaged live table apart, and --switch puts the rebuilt copy in its place', async () => {
    await db.query(
      `UPDATE "${schema}".withdrawals SET record = jsonb_set(record, '{status}', '4') WHERE withdrawal_id = 810001`,
    );
    const { ctx } = replayContextOf(exchange.infrastructure);
    const damaged = await walletReplay.rebuild(ctx, options);
    expect(checkNamed(damaged.checks, 'state hash').ok).toBe(false);
    expect(checkNamed(damaged.checks, 'projection').ok).toBe(true);

    expect(await walletReplay.switchTo!(ctx, damaged)).toMatch(
      new RegExp(`^schema ${schema}_rebuilt is now ${schema}; the previous one is kept as ${schema}_replaced_\\d{14}$`),
    );
    expect(
      (
        await db.query(`SELECT record->>'status' AS status FROM "${schema}".withdrawals WHERE withdrawal_id = 810001`)
      )[0].status,
    ).toBe('6');
    // The input side came along: the wallet's checkpoints are where the live ones were.
    expect(Number((await db.query(`SELECT count(*) AS n FROM "${schema}".checkpoints`))[0].n)).toBeGreaterThan(0);
    expect(checkNamed((await walletReplay.rebuild(ctx, options)).checks, 'state hash').ok).toBe(true);
  });
});
