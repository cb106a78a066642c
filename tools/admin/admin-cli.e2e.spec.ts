import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestExchange, type TestExchange } from '../../test/support/test-exchange';
import { toCall } from './admin-commands';

const run = promisify(execFile);
const root = resolve(__dirname, '../..');

describe('admin CLI', () => {
  it('maps commands to operator calls and refuses unknown ones with the usage', () => {
    expect(toCall(['deposit', '7', 'BTC', '1.5'])).toMatchObject({
      method: 'POST',
      path: '/admin/v1/deposits',
      body: { accountId: '7', asset: 'BTC', amount: '1.5' },
    });
    expect(toCall(['deposit', '7', 'BTC', '1.5', '--txid', 'tx1', '--confirmations', '1'])).toMatchObject({
      body: { txid: 'tx1', confirmations: 1 },
    });
    expect(toCall(['withdrawal-addresses', 'add', '7', 'USDT', 'TXabc', '--chain', 'TRC20'])).toMatchObject({
      path: '/admin/v1/withdrawal-addresses',
      body: { accountId: '7', tokenId: 'USDT', address: 'TXabc', chainType: 'TRC20' },
    });
    expect(toCall(['withdrawals', 'reject', '99', '--reason', 'aml'])).toEqual({
      method: 'POST',
      path: '/admin/v1/withdrawals/99/reject',
      body: { reason: 'aml' },
    });
    expect(toCall(['chain', 'confirm', '99', '--confirmations', '3'])).toEqual({
      method: 'POST',
      path: '/admin/v1/chain/withdrawals/99/confirm',
      body: { confirmations: 3 },
    });
    expect(() => toCall(['chain', 'confirm', '99', '--confirmations', 'many'])).toThrow(/confirmations/);
    expect(toCall(['flags', '7', '--can-trade', 'false'])).toMatchObject({ body: { canTrade: false } });
    // Contracts (issue 17): a contracts account's USDT and positions, and a contract book's status.
    expect(toCall(['contracts', '7'])).toEqual({ method: 'GET', path: '/admin/v1/accounts/7/contracts' });
    expect(toCall(['symbol-status', 'BTC-SWAP-USDT', 'HALT'])).toEqual({
      method: 'POST',
      path: '/admin/v1/symbols/BTC-SWAP-USDT/status',
      body: { status: 'HALT' },
    });
    expect(() => toCall(['users', 'delete'])).toThrow(/usage/);
  });

  describe('against a running exchange', () => {
    let exchange: TestExchange;
    beforeAll(async () => {
      exchange = await startTestExchange();
    });
    afterAll(async () => exchange.close());

    it('creates a user, funds it and shows the account', async () => {
      const env = {
        ...process.env,
        EXCHANGE_URL: exchange.baseUrl,
        ADMIN_TOKEN: exchange.infrastructure.config.ADMIN_TOKEN!,
      };
      const cli = async (...args: string[]): Promise<unknown> =>
        JSON.parse(
          (await run(process.execPath, ['scripts/run.js', 'tools/admin/admin-cli.ts', ...args], { cwd: root, env }))
            .stdout,
        );
      const user = (await cli('users', 'create', '--name', 'cli')) as { accounts: { accountId: string }[] };
      const accountId = user.accounts[0]!.accountId;
      await cli('deposit', accountId, 'ETH', '3.25');
      const account = (await cli('account', accountId)) as { balances: { asset: string; free: string }[] };
      expect(account.balances.find((b) => b.asset === 'ETH')?.free).toBe('3.25000000');
      await expect(
        run(process.execPath, ['scripts/run.js', 'tools/admin/admin-cli.ts', 'account', '42'], { cwd: root, env }),
      ).rejects.toMatchObject({ code: 1 });

      const entry = (await cli('withdrawal-addresses', 'add', accountId, 'ETH', '0xfeed')) as { id: string };
      expect((await cli('withdrawal-addresses', 'list', accountId)) as unknown[]).toEqual([
        expect.objectContaining({ id: entry.id, address: '0xfeed' }),
      ]);
      await expect(
        run(process.execPath, ['scripts/run.js', 'tools/admin/admin-cli.ts', 'withdrawals', 'approve', '42'], {
          cwd: root,
          env,
        }),
      ).rejects.toMatchObject({ code: 1 });
    }, 60_000);
  });
});
