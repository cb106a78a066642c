import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { LedgerAccountCommand } from '@exchange/contracts';
import { ManualClock } from '@exchange/platform';
import { publishLedgerCommands, readLedgerEvents } from '../../../../test/support/ledger-events';
import { startTestExchange, type TestExchange } from '../../../../test/support/test-exchange';
import { waitFor } from '../../../../test/support/wait-for';

const WINDOW_MS = 60_000;

function cmd<T extends LedgerAccountCommand['type']>(
  type: T,
  payload: Extract<LedgerAccountCommand, { type: T }>['payload'],
): LedgerAccountCommand {
  return { type, v: 1, id: `rw-${randomUUID()}`, ts: Date.now(), payload } as LedgerAccountCommand;
}

/** The ledger's state holds the processed command ids of the retry window, not of the history. */
describe('the ledger forgets processed command ids after the retry window', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  let exchange: TestExchange;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, env: { RETRY_WINDOW_MS: String(WINDOW_MS) } });
  });
  afterAll(async () => exchange.close());

  const applied = async (command: LedgerAccountCommand): Promise<void> => {
    await publishLedgerCommands(exchange.infrastructure.eventLog, [command]);
    await waitFor(
      async () =>
        (await readLedgerEvents(exchange.infrastructure.eventLog)).some((e) => e.payload.commandId === command.id),
      `${command.type} decided`,
    );
  };
  const creditsOf = async (id: string): Promise<number> =>
    (await readLedgerEvents(exchange.infrastructure.eventLog)).filter((e) => e.payload.commandId === id).length;

  it('skips a redelivery inside the window and drops the id once the window has passed', async () => {
    const userId = '71';
    await applied(cmd('CreateUser', { userId, name: 'win', accountIds: ['7101', '7102', '7103'] }));
    const deposit = cmd('CreditDeposit', { userId, accountId: '7101', depositId: '71', asset: 'USDT', amount: '5' });
    await applied(deposit);

    clock.set(clock.now() + WINDOW_MS - 1);
    await applied(cmd('SetAccountFlags', { userId, accountId: '7101', canWithdraw: true }));
    await publishLedgerCommands(exchange.infrastructure.eventLog, [deposit]);
    await applied(cmd('SetAccountFlags', { userId, accountId: '7101', canWithdraw: true }));
    expect(await creditsOf(deposit.id)).toBe(1);

    // Past the window the id is forgotten: a redelivery then is decided again (the window is the contract).
    clock.set(clock.now() + 2);
    await applied(cmd('SetAccountFlags', { userId, accountId: '7101', canWithdraw: true }));
    await publishLedgerCommands(exchange.infrastructure.eventLog, [deposit]);
    await waitFor(async () => (await creditsOf(deposit.id)) === 2, 'the redelivery past the window decided again');
  });
});
