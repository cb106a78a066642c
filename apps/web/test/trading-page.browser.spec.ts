import type { Page } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot, type TestBrowser } from '../../../test/support/browser';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';
import { startWebExchange, type WebExchange } from '../../../test/support/web-exchange';

jest.setTimeout(90_000);
const run = browserAvailable('trading page in chromium') ? describe : describe.skip;
const SYMBOL = 'BTCUSDT';

/**
 * The trading page in a real browser against a real `npm start`: every element is found by its
 * role and accessible name, as a screen reader user would find it; changes arrive over the
 * page's sockets, never by a reload.
 */
run('the trading page', () => {
  let web: WebExchange;
  let browser: TestBrowser;
  let page: Page;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    web = await startWebExchange();
    [alice, bob] = await Promise.all([
      createFundedUser(web.baseUrl, web.adminToken, { USDT: '10000', BTC: '1' }),
      createFundedUser(web.baseUrl, web.adminToken, { BTC: '1' }),
    ]);
    browser = await launchBrowser();
    page = await browser.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  const region = (name: string) => page.getByRole('region', { name });
  const alert = () => page.getByRole('alert');

  it('lists every symbol in the market picker and shows the market before sign-in', async () => {
    await page.goto(web.baseUrl + '/');
    const picker = page.getByRole('combobox', { name: 'Market' });
    await picker.getByRole('option', { name: 'ETH/BTC' }).waitFor({ state: 'attached' });
    const info = (await (await fetch(`${web.baseUrl}/openapi/v1/brokerInfo`)).json()) as {
      symbols: { baseAsset: string; quoteAsset: string }[];
    };
    expect(await picker.getByRole('option').allTextContents()).toEqual(
      info.symbols.map((s) => `${s.baseAsset}/${s.quoteAsset}`),
    );
    for (const name of ['Order book', 'Recent trades', 'Chart']) await region(name).waitFor();
    await page.getByRole('status', { name: 'Last candle' }).waitFor();
    await screenshot(page, 'trade-signed-out');
  });

  it('signs in with an API key and secret, signing in the browser; the secret is stored nowhere', async () => {
    await page.getByRole('textbox', { name: 'API key' }).fill(alice.key.apiKey);
    await page.getByRole('textbox', { name: 'Secret key' }).fill(alice.key.secretKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await region('Balances')
      .getByRole('row', { name: /USDT 10000\.0+ 0\.0+/ })
      .waitFor();
    await region('Open orders').waitFor();
    const stored = await page.evaluate<string>(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie',
    );
    expect(stored).not.toContain(alice.key.secretKey);
  });

  it('places a LIMIT order and shows it in open orders and in the book, then cancels it', async () => {
    await page.getByRole('textbox', { name: 'Price' }).fill('30000');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('0.01');
    await page.getByRole('button', { name: 'Buy' }).click();
    const row = region('Open orders').getByRole('row', { name: /BUY LIMIT 30000(\.0+)? 0\.01/ });
    await row.waitFor();
    await region('Order book')
      .getByRole('row', { name: /30000\.00 0\.01000/ })
      .waitFor();
    await region('Balances')
      .getByRole('row', { name: /USDT 9700\.0+ 300\.0+/ })
      .waitFor();
    await screenshot(page, 'trade-order-open');

    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.waitFor({ state: 'detached' });
    await region('Order book')
      .getByRole('row', { name: /30000\.00/ })
      .waitFor({ state: 'detached' });
    await region('Balances')
      .getByRole('row', { name: /USDT 10000\.0+ 0\.0+/ })
      .waitFor();
  });

  it('shows the trade, the balance and the candle change when another account fills the order, without a reload', async () => {
    const candle = page.getByRole('status', { name: 'Last candle' });
    const before = await candle.textContent();
    await page.getByRole('textbox', { name: 'Price' }).fill('31000');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('0.01');
    await page.getByRole('button', { name: 'Buy' }).click();
    await region('Open orders')
      .getByRole('row', { name: /BUY LIMIT 31000(\.0+)? 0\.01/ })
      .waitFor();

    const sell = await signedRequest<{ status: string }>(web.baseUrl, 'POST', '/openapi/v1/order', bob.key, {
      body: { symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '31000', quantity: '0.01' },
    });
    expect(sell.body.status).toBe('FILLED');

    await region('Recent trades')
      .getByRole('row', { name: /31000\.00 0\.01000/ })
      .waitFor();
    await region('My trades')
      .getByRole('row', { name: /BUY 31000(\.0+)? 0\.01/ })
      .waitFor();
    // 0.01 BTC bought, less the 0.1 % fee charged in BTC; 310 USDT spent.
    await region('Balances')
      .getByRole('row', { name: /BTC 1\.00999000/ })
      .waitFor();
    await region('Balances')
      .getByRole('row', { name: /USDT 9690\.0+ 0\.0+/ })
      .waitFor();
    await region('Open orders')
      .getByRole('row', { name: /BUY LIMIT 31000/ })
      .waitFor({ state: 'detached' });
    await waitFor(
      async () => (await candle.textContent())?.includes('C 31000.00') === true,
      'the candle to close at the trade',
      20_000,
      100,
    );
    expect(await candle.textContent()).not.toBe(before);
    await region('Balance flow')
      .getByRole('row', { name: /BTC TRADE/ })
      .first()
      .waitFor();
    await screenshot(page, 'trade-filled');
  });

  it('shows the API message of a rejected order', async () => {
    const refused = await signedRequest<{ code: number; msg: string }>(
      web.baseUrl,
      'POST',
      '/openapi/v1/order',
      alice.key,
      { body: { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '30000', quantity: '100' } },
    );
    expect(refused.status).toBe(400);
    await page.getByRole('textbox', { name: 'Price' }).fill('30000');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('100');
    await page.getByRole('button', { name: 'Buy' }).click();
    await alert().filter({ hasText: refused.body.msg }).waitFor();
    expect(await alert().textContent()).toContain(String(refused.body.code));
    await screenshot(page, 'trade-rejected');
  });

  it('offers the demo account to a browser on this machine', async () => {
    const demoPage = await browser.newPage();
    await demoPage.goto(web.baseUrl + '/');
    await demoPage.getByRole('button', { name: 'Use demo account' }).click();
    await demoPage
      .getByRole('region', { name: 'Balances' })
      .getByRole('row', { name: /USDT 1000000\.0+/ })
      .waitFor();
    await demoPage.close();
  });

  it('loaded without a console error or a refused resource (the CSP allows only this origin)', () => {
    expect(browser.problems).toEqual([]);
  });
});
