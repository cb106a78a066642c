import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { LedgerCommand } from '@exchange/contracts';
import { ManualClock } from '@exchange/platform';
import type { DataSource } from 'typeorm';
import { publishLedgerCommands, readLedgerEvents } from '../../../../test/support/ledger-events';
import { startTestExchange, type TestExchange } from '../../../../test/support/test-exchange';
import { waitFor } from '../../../../test/support/wait-for';
import { LEDGER_DATA_SOURCE, LEDGER_SCHEMA } from './ledger.tokens';

const WINDOW_MS = 60_000;

function cmd<T extends LedgerCommand['type']>(type: T, payload: Extract<LedgerCommand, { type: T }>['payload']): LedgerCommand {
  return { type, v: 1, id: `rw-${randomUUID()}`, ts: Date.now(), payload } as LedgerCommand;
}

/** PostgreSQL and memory hold the processed command ids of the retry window, not of the history. */
describe('the ledger forgets processed command ids after the retry window', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  let exchange: TestExchange;
  let dataSource: DataSource;
  let schema: string;

  beforeAll(async () => {
    exchange = await startTestExchange({ clock, env: { RETRY_WINDOW_MS: String(WINDOW_MS) } });
    dataSource = exchange.app.get(LEDGER_DATA_SOURCE);
    schema = exchange.app.get(LEDGER_SCHEMA);
  });
  afterAll(async () => exchange.close());

  const applied = async (command: LedgerCommand): Promise<void> => {
    await publishLedgerCommands(exchange.infrastructure.eventLog, [command]);
    await waitFor(async () => (await readLedgerEvents(exchange.infrastructure.eventLog)).some((e) => e.payload.commandId === command.id), `${command.type} decided`);
  };
  const remembered = async (id: string): Promise<boolean> => (await dataSource.query(`SELECT 1 FROM "${schema}".processed_commands WHERE command_id = $1`, [id])).length > 0;

  it('skips a redelivery inside the window and drops the id once the window has passed', async () => {
    const userId = '71';
    await applied(cmd('CreateUser', { userId, name: 'win', accountIds: ['7101', '7102', '7103'] }));
    const deposit = cmd('CreditDeposit', { userId, accountId: '7101', depositId: '71', asset: 'USDT', amount: '5' });
    await applied(deposit);
    expect(await remembered(deposit.id)).toBe(true);

    clock.set(clock.now() + WINDOW_MS - 1);
    await applied(cmd('SetAccountFlags', { userId, accountId: '7101', canWithdraw: true }));
    await publishLedgerCommands(exchange.infrastructure.eventLog, [deposit]);
    await applied(cmd('SetAccountFlags', { userId, accountId: '7101', canWithdraw: true }));
    const credits = (await readLedgerEvents(exchange.infrastructure.eventLog)).filter((e) => e.payload.commandId === deposit.id);
    expect(credits).toHaveLength(1);
    expect(await remembered(deposit.id)).toBe(true);

    clock.set(clock.now() + 2);
    await applied(cmd('SetAccountFlags', { userId, accountId: '7101', canWithdraw: true }));
    expect(await remembered(deposit.id)).toBe(false);
  });
});
