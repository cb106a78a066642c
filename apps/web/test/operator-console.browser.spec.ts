import type { Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot, type TestBrowser } from '../../../test/support/browser';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { adminCall, signedRequest } from '../../../test/support/signed-client';
import { startWebExchange, type WebExchange } from '../../../test/support/web-exchange';

jest.setTimeout(90_000);
const run = browserAvailable('operator console in chromium') ? describe : describe.skip;

/** The operator console at /admin/ in a real browser: sign in with the token, approve a withdrawal. */
run('the operator console', () => {
  let web: WebExchange;
  let browser: TestBrowser;
  let page: Page;
  let carol: TestUser;
  let withdrawalId: string;

  beforeAll(async () => {
    web = await startWebExchange();
    carol = await createFundedUser(web.baseUrl, web.adminToken, { BTC: '2' });
    const address = 'bc1qconsoletestaddress000000000000000000';
    const entry = await adminCall(web.baseUrl, web.adminToken, 'POST', '/admin/v1/withdrawal-addresses', {
      accountId: carol.mainAccountId,
      tokenId: 'BTC',
      address,
    });
    expect(entry.status).toBe(200);
    // Above BTC's autoApproveBelow (0.1): it waits for the operator.
    const withdrawal = await signedRequest<{ orderId: string; status: number }>(
      web.baseUrl,
      'POST',
      '/openapi/v1/withdraw',
      carol.key,
      {
        body: { tokenId: 'BTC', address, withdrawalQuantity: '0.5', clientOrderId: 'console-1' },
      },
    );
    expect(withdrawal.body.status).toBe(1);
    withdrawalId = withdrawal.body.orderId;
    browser = await launchBrowser();
    page = await browser.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  const region = (name: string) => page.getByRole('region', { name });

  it('refuses a wrong token and signs in with the operator token', async () => {
    await page.goto(web.baseUrl + '/admin/');
    await page.getByRole('textbox', { name: 'Operator token' }).fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'ADMIN_TOKEN' }).waitFor();
    await page.getByRole('textbox', { name: 'Operator token' }).fill(web.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    for (const name of ['Withdrawals awaiting approval', 'Users', 'Deposits', 'Symbols', 'Audit trail'])
      await region(name).waitFor();
    await region('Users')
      .getByRole('row', { name: new RegExp(carol.userId) })
      .waitFor();
    await region('Deposits').getByRole('row', { name: /BTC 2/ }).first().waitFor();
    await region('Audit trail')
      .getByRole('row', { name: /POST \/admin\/v1\/withdrawal-addresses/ })
      .waitFor();
  });

  it('approves a withdrawal through both audits; the wallet moves it to processing', async () => {
    const row = region('Withdrawals awaiting approval').getByRole('row', { name: new RegExp(withdrawalId) });
    await row.getByRole('cell', { name: 'BROKER_AUDITING_STATUS' }).waitFor();
    await screenshot(page, 'admin-withdrawal-waiting');
    await row.getByRole('button', { name: 'Approve' }).click();
    await row.getByRole('cell', { name: 'AUDITING_STATUS' }).waitFor();
    await row.getByRole('button', { name: 'Approve' }).click();
    await row.waitFor({ state: 'detached' });
    const detail = await signedRequest<{ status: number }>(
      web.baseUrl,
      'GET',
      '/openapi/v1/withdraw/detail',
      carol.key,
      { query: { orderId: withdrawalId } },
    );
    expect(detail.body.status).toBe(5);
    await screenshot(page, 'admin-approved');
  });

  it('shows the API keys and a deposit address of an account', async () => {
    await region('Users')
      .getByRole('button', { name: new RegExp(`1/0: ${carol.mainAccountId}`) })
      .click();
    const account = page.getByRole('group', { name: `Account ${carol.mainAccountId}` });
    await account.getByRole('listitem').filter({ hasText: carol.key.apiKey }).waitFor();
    await account.getByRole('textbox', { name: 'Token' }).fill('BTC');
    await account.getByRole('button', { name: 'Show deposit address' }).click();
    await account
      .getByRole('status')
      .filter({ hasText: /^BTC \(BTC\): ex1/ })
      .waitFor();
    await screenshot(page, 'admin-account');
  });

  it('loaded without a console error or a refused resource', () => {
    expect(browser.problems).toEqual([]);
  });
});
