import 'reflect-metadata';
import { openDataSource } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import {
  type ExchangeProcess,
  exchangeTestBed,
  spawnExchange,
  adminTokenOnceReady,
} from '../../../test/support/exchange-process';
import { restartAndCompare } from '../../../test/support/crash-recovery';
import { signedRequest } from '../../../test/support/signed-client';
import { waitFor } from '../../../test/support/wait-for';

/**
 * kill -9 of the whole embedded exchange (ledger and matching engine together) in the middle of
 * a burst of crossing orders. After a restart: no order.events id twice, the ledger equal to
 * deciding every journaled command once (the engine's settlement legs included), and balances
 * that add up to the deposits, fee accounts included.
 */
describe('trading crash recovery', () => {
  const { dataDir, prefix, env } = exchangeTestBed('trading-crash', {
    RATE_LIMIT_ORDERS_PER_SECOND: '100000',
  });
  let exchange: ExchangeProcess;

  afterAll(async () => {
    if (exchange?.child.exitCode === null) exchange.child.kill('SIGKILL');
  });

  it('recovers ledger and engine to one consistent state', async () => {
    exchange = spawnExchange(env);
    const token = await adminTokenOnceReady(exchange, dataDir);
    const sellers: TestUser[] = [
      await createFundedUser(exchange.baseUrl, token, { ETH: '100' }),
      await createFundedUser(exchange.baseUrl, token, { ETH: '100' }),
    ];
    const buyers: TestUser[] = [
      await createFundedUser(exchange.baseUrl, token, { USDT: '1000000' }),
      await createFundedUser(exchange.baseUrl, token, { USDT: '1000000' }),
    ];
    let answered = 0;
    const order = (user: TestUser, side: string, price: string) =>
      signedRequest(exchange.baseUrl, 'POST', '/openapi/v1/order', user.key, {
        query: { symbol: 'ETHUSDT', side, type: 'LIMIT', price, quantity: '0.5' },
      })
        .then(() => void answered++)
        .catch(() => undefined);
    const burst = Array.from({ length: 60 }, (_, i) => [
      order(sellers[i % 2]!, 'SELL', String(3000 + (i % 5))),
      order(buyers[i % 2]!, 'BUY', String(3002 + (i % 5))),
    ]).flat();
    // Kill once part of the burst is answered (a fixed delay could fall before the first trade
    // on a loaded machine), so trades are settled and others still in flight.
    await waitFor(() => answered >= 10, 'the first answers of the burst', 60_000);
    // ... and once the first trade settled, while the burst is still going.
    const watch = await openDataSource({
      url: env.DATABASE_URL,
      schema: `${prefix}ledger`,
      entities: [],
      migrations: [],
      readOnly: true,
    });
    await waitFor(
      async () => (await watch.query(`SELECT count(*)::int AS n FROM "${prefix}ledger".trades`))[0].n > 0,
      'the first trade',
      30_000,
      10,
    );
    await watch.destroy();
    exchange.child.kill('SIGKILL');
    expect(await exchange.exited()).toBe('SIGKILL');
    await Promise.all(burst);

    // Restart; once caught up, stop cleanly and compare what the journal says with the tables.
    exchange = await restartAndCompare(env, ({ journaled }) => {
      expect([...journaled.values()].filter((e) => e.type === 'TradeSettled').length).toBeGreaterThan(0);
    });
  }, 180_000);
});
