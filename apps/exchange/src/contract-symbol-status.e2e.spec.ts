import 'reflect-metadata';
import { ManualClock } from '@exchange/platform';
import { contractClient } from '../../../test/support/contract-client';
import type { TestUser } from '../../../test/support/exchange-actors';
import { http } from '../../../test/support/http-client';
import { adminCall } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { waitFor } from '../../../test/support/wait-for';

type Json = Record<string, unknown>;
const SWAP = 'BTC-SWAP-USDT';

/** The operator halts and resumes a contract's book as a spot symbol's (issue 17: symbol status and halts). */
describe("a contract symbol's status set by the operator", () => {
  let exchange: TestExchange;
  let alice: TestUser;
  let token: string;
  let n = 0;
  let client: ReturnType<typeof contractClient>;
  const call = (method: string, path: string, query: Record<string, string | number> = {}) =>
    client.call(alice, method, path, query);
  const open = () =>
    call('POST', '/openapi/contract/v1/order', {
      symbol: SWAP,
      side: 'BUY_OPEN',
      quantity: '1',
      price: '20000',
      leverage: '10',
      clientOrderId: `st-${++n}`,
    });
  const setStatus = (status: string) =>
    adminCall<Json>(exchange.baseUrl, token, 'POST', `/admin/v1/symbols/${SWAP}/status`, { status });
  const brokerStatus = async () =>
    (
      await http<{ contracts: { symbol: string; status: string }[] }>(
        exchange.baseUrl,
        'GET',
        '/openapi/v1/brokerInfo?type=contracts',
      )
    ).body.contracts.find((c) => c.symbol === SWAP)?.status;

  beforeAll(async () => {
    exchange = await startTestExchange();
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
    client = contractClient(exchange.baseUrl, token, new ManualClock(Date.now()), SWAP, 'BTCUSDT');
    alice = await client.trader('1000');
  });
  afterAll(async () => exchange.close());

  it('refuses new orders while halted (-1151) and cancels go on; TRADING again takes orders', async () => {
    const resting = await open();
    expect(resting.body).toMatchObject({ status: 'NEW' });

    expect((await setStatus('HALT')).body).toEqual({
      symbol: SWAP,
      status: 'HALT',
      baseAsset: SWAP,
      quoteAsset: 'USDT',
    });
    await waitFor(async () => (await brokerStatus()) === 'HALT', 'brokerInfo shows the contract halted');
    expect((await open()).body).toMatchObject({ code: -1151 });
    expect(
      (await call('DELETE', '/openapi/contract/v1/order/cancel', { orderId: String(resting.body['orderId']) })).body,
    ).toMatchObject({ status: 'CANCELED' });
    expect((await call('GET', '/openapi/contract/v1/account')).body).toMatchObject({ USDT: { orderMargin: '0' } });

    expect((await setStatus('TRADING')).body).toMatchObject({ symbol: SWAP, status: 'TRADING' });
    expect((await open()).body).toMatchObject({ status: 'NEW' });
    await waitFor(async () => (await brokerStatus()) === 'TRADING', 'brokerInfo shows the contract trading');
  });

  it('still refuses a name that is neither a symbol nor a contract (-1121), or not a name at all (-1130)', async () => {
    expect(
      (
        await adminCall<Json>(exchange.baseUrl, token, 'POST', '/admin/v1/symbols/DOGE-SWAP-USDT/status', {
          status: 'HALT',
        })
      ).body,
    ).toMatchObject({ code: -1121 });
    expect(
      (
        await adminCall<Json>(exchange.baseUrl, token, 'POST', '/admin/v1/symbols/BTC--USDT/status', {
          status: 'HALT',
        })
      ).body,
    ).toMatchObject({ code: -1130 });
  });
});
