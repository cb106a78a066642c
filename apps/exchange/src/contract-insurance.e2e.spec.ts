import 'reflect-metadata';
import { adminCall } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';

/** The operator seeds the insurance fund; the public insurance endpoint sums every ledger partition's share. */
describe('insurance fund seeding', () => {
  let exchange: TestExchange;
  let token: string;

  beforeAll(async () => {
    exchange = await startTestExchange();
    token = exchange.infrastructure.config.ADMIN_TOKEN!;
  });
  afterAll(async () => exchange.close());

  it('splits a seed over the partitions to the unit and serves the sum', async () => {
    const { body: seeded } = await adminCall<{
      seedId: string;
      amount: string;
      shares: { partition: number; amount: string; balance: string }[];
    }>(exchange.baseUrl, token, 'POST', '/admin/v1/insurance-fund', { amount: '1000.00000001' });
    expect(seeded).toMatchObject({ amount: '1000.00000001' });
    const total = seeded.shares.reduce((sum, s) => sum + Math.round(Number(s.amount) * 1e8), 0);
    expect(total).toBe(100000000001);
    const response = await fetch(`${exchange.baseUrl}/openapi/contract/v1/insurance`);
    expect(response.status).toBe(200);
    const fund = (await response.json()) as { token: string; balance: string };
    expect(fund).toMatchObject({ token: 'USDT' });
    expect(Number(fund.balance)).toBeCloseTo(1000.00000001, 8);
  });
});
