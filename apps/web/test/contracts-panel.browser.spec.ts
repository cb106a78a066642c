import type { Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot, type TestBrowser } from '../../../test/support/browser';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { signedRequest } from '../../../test/support/signed-client';
import { startWebExchange, type WebExchange } from '../../../test/support/web-exchange';

jest.setTimeout(90_000);
const run = browserAvailable('contracts panel in chromium') ? describe : describe.skip;
const SWAP = 'BTC-SWAP-USDT';

/**
 * The trading page's contracts panel in a real browser against a real `npm start`: the contracts
 * account, positions and open contract orders, found by role and name, changed by orders sent
 * over REST and arriving over the page's user stream (its contract events), never by a reload.
 */
run('the contracts panel', () => {
  let web: WebExchange;
  let browser: TestBrowser;
  let page: Page;
  let alice: TestUser;
  let bob: TestUser;
  const call = <T = Record<string, unknown>>(
    user: TestUser,
    method: string,
    path: string,
    query: Record<string, string>,
  ) => signedRequest<T>(web.baseUrl, method, path, user.key, { query });
  const order = async (user: TestUser, side: string, quantity: string, price: string, clientOrderId: string) => {
    const answer = await call<{ status: string }>(user, 'POST', '/openapi/contract/v1/order', {
      symbol: SWAP,
      side,
      quantity,
      price,
      leverage: '10',
      clientOrderId,
    });
    expect(answer.status).toBe(200);
    return answer.body.status;
  };

  beforeAll(async () => {
    web = await startWebExchange();
    [alice, bob] = await Promise.all([
      createFundedUser(web.baseUrl, web.adminToken, { USDT: '100000' }),
      createFundedUser(web.baseUrl, web.adminToken, { USDT: '100000' }),
    ]);
    for (const user of [alice, bob])
      expect(
        (
          await call(user, 'POST', '/openapi/v1/transfer', {
            fromAccountType: '1',
            toAccountType: '3',
            tokenId: 'USDT',
            amount: '10000',
          })
        ).body,
      ).toEqual({ success: 'true' });
    browser = await launchBrowser();
    page = await browser.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  const contracts = () => page.getByRole('region', { name: 'Contracts' });

  it('shows the contracts account after sign-in', async () => {
    await page.goto(web.baseUrl + '/');
    await page.getByRole('textbox', { name: 'API key' }).fill(alice.key.apiKey);
    await page.getByRole('textbox', { name: 'Secret key' }).fill(alice.key.secretKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await contracts().getByRole('row', { name: 'USDT 10000 10000 0 0' }).waitFor();
    await contracts().getByRole('cell', { name: 'No positions.' }).waitFor();
  });

  it('shows the position a fill opens and the margin it holds, as the stream reports them', async () => {
    expect(await order(bob, 'SELL_OPEN', '10', '30000', 'web-short')).toBe('NEW');
    expect(await order(alice, 'BUY_OPEN', '4', '30000', 'web-long')).toBe('FILLED');
    // 4 contracts of 0.001 BTC at 30000 and 10×: margin 12; the taker fee 0.072.
    await contracts()
      .getByRole('row', { name: /^BTC-SWAP-USDT LONG 4 4 30000 10 12 / })
      .waitFor();
    await contracts().getByRole('row', { name: 'USDT 9999.928 9987.928 12 0' }).waitFor();
    await screenshot(page, 'contracts-position');
  });

  it('lists an open contract order and cancels it', async () => {
    expect(await order(alice, 'BUY_OPEN', '1', '29000', 'web-rest')).toBe('NEW');
    const row = contracts().getByRole('row', { name: /BTC-SWAP-USDT BUY_OPEN 29000 1 0 10 NEW/ });
    await row.waitFor();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.waitFor({ state: 'detached' });
    await contracts().getByRole('row', { name: 'USDT 9999.928 9987.928 12 0' }).waitFor();
  });

  it('loaded without a console error or a refused resource', () => {
    expect(browser.problems).toEqual([]);
  });
});
