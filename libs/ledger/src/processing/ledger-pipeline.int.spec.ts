import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { LEDGER_PROJECTION_GROUP, type LedgerAccountCommand, Topics } from '@exchange/contracts';
import { publishLedgerCommands, readLedgerEvents } from '../../../../test/support/ledger-events';
import { startTestExchange, type TestExchange } from '../../../../test/support/test-exchange';
import { waitFor } from '../../../../test/support/wait-for';
import { evolve, initialLedgerState } from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { projectionRows, writeProjection } from '../persistence/ledger-projection';
import { LedgerStore } from '../persistence/ledger-store';
import { LEDGER_DATA_SOURCE, LEDGER_SCHEMA } from './ledger.tokens';
import type { DataSource } from 'typeorm';
import { openDataSource } from '@exchange/platform';
import { ledgerMigrations } from '../ledger.module';
import { OffsetFence, partitionForKey } from '@exchange/messaging';

let n = 0;
function cmd<T extends LedgerAccountCommand['type']>(
  type: T,
  payload: Extract<LedgerAccountCommand, { type: T }>['payload'],
  id = `it-${randomUUID()}-${++n}`,
): LedgerAccountCommand {
  return { type, v: 1, id, ts: Date.now(), payload } as LedgerAccountCommand;
}

describe('ledger pipeline on the event log and PostgreSQL', () => {
  let exchange: TestExchange;
  let dataSource: DataSource;
  let schema: string;

  beforeAll(async () => {
    exchange = await startTestExchange({ onKafkaWhenAvailable: true });
    dataSource = exchange.app.get(LEDGER_DATA_SOURCE);
    schema = exchange.app.get(LEDGER_SCHEMA);
  });
  afterAll(async () => exchange.close());

  const balances = async (accountId: string): Promise<Record<string, { free: string; locked: string }>> => {
    const rows: { asset: string; free: string; locked: string }[] = await dataSource.query(
      `SELECT asset, free::text, locked::text FROM "${schema}".balances WHERE account_id = $1`,
      [accountId],
    );
    return Object.fromEntries(rows.map((r) => [r.asset, { free: r.free, locked: r.locked }]));
  };

  it('decides commands in order, projects them, and journals one event stream per user', async () => {
    const deposit = cmd('CreditDeposit', {
      userId: '11',
      accountId: '1101',
      depositId: '1',
      asset: 'USDT',
      amount: '100.5',
    });
    const duplicate = { ...deposit };
    await publishLedgerCommands(exchange.infrastructure.eventLog, [
      cmd('CreateUser', { userId: '11', name: 'ann', accountIds: ['1101', '1102', '1103'] }),
      deposit,
      duplicate,
      cmd('TransferFunds', {
        userId: '11',
        transferId: '2',
        fromAccountId: '1101',
        toAccountId: '1102',
        asset: 'USDT',
        amount: '0.5',
      }),
      cmd('TransferFunds', {
        userId: '11',
        transferId: '3',
        fromAccountId: '1101',
        toAccountId: '1102',
        asset: 'USDT',
        amount: '1000',
      }),
    ]);
    await exchange.infrastructure.eventLog.publish([
      { topic: Topics.ledgerCommands.name, key: '11', value: '{"not":"a command"}' },
    ]);
    const last = cmd('SetAccountFlags', { userId: '11', accountId: '1101', canWithdraw: false });
    await publishLedgerCommands(exchange.infrastructure.eventLog, [last]);

    await waitFor(
      async () =>
        (await readLedgerEvents(exchange.infrastructure.eventLog)).some((e) => e.payload.commandId === last.id),
      "the last command's event",
    );
    // The tables are a projection written off the order path: a read waits until it passed what was journaled.
    await new OffsetFence(exchange.infrastructure.eventLog, {
      groupId: LEDGER_PROJECTION_GROUP,
      topic: Topics.ledgerEvents.name,
      timeoutMs: 30_000,
    }).passed();
    const events = (await readLedgerEvents(exchange.infrastructure.eventLog)).filter((e) => e.payload.userId === '11');
    expect(events.map((e) => e.type)).toEqual([
      'UserCreated',
      'DepositCredited',
      'FundsTransferred',
      'CommandRejected',
      'AccountFlagsSet',
    ]);
    expect(events.map((e) => e.payload.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events[3]).toMatchObject({ payload: { code: -1131 } });
    expect(await balances('1101')).toEqual({ USDT: { free: '100', locked: '0' } });
    expect(await balances('1102')).toEqual({ USDT: { free: '0.5', locked: '0' } });
    const flows: { flow_type: string; change: string; total: string }[] = await dataSource.query(
      `SELECT flow_type, change::text, total::text FROM "${schema}".balance_flows WHERE account_id = 1101 ORDER BY flow_id`,
    );
    expect(flows).toEqual([
      { flow_type: 'DEPOSIT', change: '100.5', total: '100.5' },
      { flow_type: 'USER_ACCOUNT_TRANSFER', change: '-0.5', total: '100' },
    ]);
  });

  it('rebuilds the same balances, flows and state hash from ledger.events into an empty schema', async () => {
    const events = await readLedgerEvents(exchange.infrastructure.eventLog);
    const rebuiltSchema = `${schema}_rebuilt`;
    const rebuilt = await openDataSource({
      url: exchange.infrastructure.database!.url,
      schema: rebuiltSchema,
      entities: [],
      migrations: ledgerMigrations,
    });
    try {
      const partitions = await exchange.infrastructure.eventLog.partitionCount(Topics.ledgerCommands.name);
      const partitionOf = (userId: string): number => partitionForKey(userId, partitions);
      await rebuilt.transaction((m) =>
        writeProjection(m.queryRunner!, rebuiltSchema, projectionRows(events, partitionOf)),
      );
      const table = async (ds: DataSource, s: string, sql: string): Promise<unknown[]> =>
        ds.query(sql.replace('$S', `"${s}"`));
      for (const sql of [
        'SELECT account_id, asset, free::text, locked::text FROM $S.balances ORDER BY 1, 2',
        'SELECT flow_id, account_id, asset, flow_type, change::text, total::text FROM $S.balance_flows ORDER BY 1',
        'SELECT account_id, user_id, account_type, account_index, can_withdraw FROM $S.accounts ORDER BY 1',
      ]) {
        expect(await table(rebuilt, rebuiltSchema, sql)).toEqual(await table(dataSource, schema, sql));
      }
      const fromJournal = events.reduce(evolve, initialLedgerState());
      const fromTables = initialLedgerState();
      const store = new LedgerStore(rebuilt, rebuiltSchema, partitionOf);
      for (let p = 0; p < partitions; p++) await store.loadPartition(fromTables, Topics.ledgerCommands.name, p);
      expect(ledgerStateHash(fromTables)).toBe(ledgerStateHash(fromJournal));
    } finally {
      await rebuilt.query(`DROP SCHEMA "${rebuiltSchema}" CASCADE`);
      await rebuilt.destroy();
    }
  });
});
