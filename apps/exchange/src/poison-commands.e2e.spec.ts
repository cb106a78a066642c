import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { type LedgerEvent, Topics, type WalletCommand, type WalletEvent } from '@exchange/contracts';
import { partitionForKey } from '@exchange/messaging';
import { LOGGER, type Logger } from '@exchange/platform';
import { createFundedUser, type TestUser } from '../../../test/support/exchange-actors';
import { readLedgerEvents, publishLedgerCommands } from '../../../test/support/ledger-events';
import { adminCall } from '../../../test/support/signed-client';
import { startTestExchange, type TestExchange } from '../../../test/support/test-exchange';
import { checkNamed, replayContextOf } from '../../../test/support/replay-context';
import { waitFor } from '../../../test/support/wait-for';
import { ledgerReplay } from '../../../tools/replay/ledger/ledger-rebuild';
import { walletReplay } from '../../../tools/replay/wallet/wallet-rebuild';
import { readWalletEvents } from '../../../test/support/wallet-events';

jest.setTimeout(90_000);

/**
 * Commands that reach a consumer without passing the edge (a buggy producer, a record older than
 * the edge's rules) and cannot be applied: a NUL that PostgreSQL refuses in text, a record that is
 * not a command. Each is decided once, as a rejection the requester can read or parked in
 * operator.dead-letters, with an error log line and a metric, and the partition goes on: the
 * commands behind it, in the same partition and in others, are applied.
 */
describe('poison commands on the consumers', () => {
  let exchange: TestExchange;
  let alice: TestUser;
  let bob: TestUser;
  let errors: jest.SpyInstance;
  let seq = 0;
  const newId = (): string => `${Date.now()}${String(seq++).padStart(3, '0')}`;

  const poisonCount = async (name: string, outcome: string): Promise<number> => {
    const metric = exchange.infrastructure.metrics.registry.getSingleMetric(name);
    return (await metric?.get())?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  };
  const deadLetters = async (): Promise<
    { service: string; topic: string; value: string; error: { message: string } }[]
  > => {
    const out: { service: string; topic: string; value: string; error: { message: string } }[] = [];
    await exchange.infrastructure.eventLog.read(
      Topics.deadLetters.name,
      0,
      0,
      async (records) => void out.push(...records.map((r) => JSON.parse(r.value))),
    );
    return out;
  };
  const ledgerEventOf = async (commandId: string): Promise<LedgerEvent | undefined> =>
    (await readLedgerEvents(exchange.infrastructure.eventLog)).find((e) => e.payload.commandId === commandId);
  const walletEventOf = async (commandId: string): Promise<WalletEvent | undefined> =>
    (await readWalletEvents(exchange.infrastructure.eventLog)).find((e) => e.payload.commandId === commandId);
  const subAccount = (user: TestUser, accountName: string) =>
    ({
      type: 'CreateSubAccount',
      v: 1,
      id: newId(),
      ts: Date.now(),
      payload: { userId: user.userId, accountId: newId(), accountType: 1, accountName },
    }) as const;

  beforeAll(async () => {
    exchange = await startTestExchange();
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    alice = await createFundedUser(exchange.baseUrl, token);
    bob = await createFundedUser(exchange.baseUrl, token);
    // Two users in different ledger partitions, so one test shows both "same partition" and "other partition".
    while (
      partitionForKey(bob.userId, Topics.ledgerCommands.partitions) ===
      partitionForKey(alice.userId, Topics.ledgerCommands.partitions)
    ) {
      bob = await createFundedUser(exchange.baseUrl, token);
    }
    errors = jest.spyOn(exchange.app.get<symbol, Logger>(LOGGER), 'error');
  }, 90_000);
  afterAll(async () => exchange.close(), 60_000);

  it('ledger: rejects a NUL account name with -1100, applies what follows it in its partition and in others', async () => {
    const poison = subAccount(alice, '\u0000');
    const after = subAccount(alice, 'after the poison');
    const elsewhere = subAccount(bob, 'another partition');
    await publishLedgerCommands(exchange.infrastructure.eventLog, [poison, after, elsewhere]);

    await waitFor(
      async () => (await ledgerEventOf(after.id)) !== undefined && (await ledgerEventOf(elsewhere.id)) !== undefined,
      'the commands behind the poison to be applied',
    );
    expect(await ledgerEventOf(poison.id)).toMatchObject({
      type: 'CommandRejected',
      payload: { userId: alice.userId, commandType: 'CreateSubAccount', code: -1100 },
    });
    expect(await ledgerEventOf(after.id)).toMatchObject({
      type: 'SubAccountCreated',
      payload: { account: { accountName: 'after the poison' } },
    });
    expect(await ledgerEventOf(elsewhere.id)).toMatchObject({
      type: 'SubAccountCreated',
      payload: { account: { accountName: 'another partition' } },
    });
    expect(await poisonCount('ledger_poison_records_total', 'rejected')).toBe(1);
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ outcome: 'rejected', error: expect.objectContaining({ code: '22021' }) }),
      'ledger: poison record rejected',
    );
  });

  it('ledger: parks a record that is not a command in operator.dead-letters and goes on', async () => {
    const after = subAccount(alice, 'after the garbage');
    await exchange.infrastructure.eventLog.publish([
      { topic: Topics.ledgerCommands.name, key: alice.userId, value: '{"type":"NoSuchCommand","payload":{}}' },
      { topic: Topics.ledgerCommands.name, key: alice.userId, value: JSON.stringify(after) },
    ]);
    await waitFor(async () => (await ledgerEventOf(after.id)) !== undefined, 'the command behind the garbage');
    expect(await deadLetters()).toEqual([
      expect.objectContaining({
        service: 'ledger',
        topic: Topics.ledgerCommands.name,
        value: '{"type":"NoSuchCommand","payload":{}}',
      }),
    ]);
    expect(await poisonCount('ledger_poison_records_total', 'parked')).toBe(1);
  });

  it('wallet: rejects a NUL withdrawal address, parks garbage, and applies what follows', async () => {
    const command = (address: string): WalletCommand => ({
      type: 'AddWithdrawalAddress',
      v: 1,
      id: `cmd-${randomUUID()}`,
      ts: Date.now(),
      payload: {
        userId: alice.userId,
        accountId: alice.mainAccountId,
        entryId: newId(),
        tokenId: 'BTC',
        chainType: 'BTC',
        address,
        addressExt: '',
      },
    });
    const poison = command('\u0000');
    const after = command('bc1qafter');
    const wallet = (value: string) => ({ topic: Topics.walletCommands.name, key: alice.userId, value });
    await exchange.infrastructure.eventLog.publish([
      wallet(JSON.stringify(poison)),
      wallet('not json'),
      wallet(JSON.stringify(after)),
    ]);

    await waitFor(async () => (await walletEventOf(after.id)) !== undefined, 'the wallet command behind the poison');
    expect(await walletEventOf(poison.id)).toMatchObject({
      type: 'WalletCommandRejected',
      payload: { commandType: 'AddWithdrawalAddress', code: -1100 },
    });
    expect(await walletEventOf(after.id)).toMatchObject({ type: 'WithdrawalAddressAdded' });
    expect(await deadLetters()).toContainEqual(
      expect.objectContaining({ service: 'wallet', topic: Topics.walletCommands.name, value: 'not json' }),
    );
    expect(await poisonCount('wallet_poison_records_total', 'rejected')).toBe(1);
    expect(await poisonCount('wallet_poison_records_total', 'parked')).toBe(1);
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ outcome: 'parked' }), 'wallet: poison record parked');
  });

  it('shows the dead letters to the operator and publishes one again on request', async () => {
    const token = exchange.infrastructure.config.ADMIN_TOKEN!;
    const listed = await adminCall<{ id: string; service: string; value: string; error: { message: string } }[]>(
      exchange.baseUrl,
      token,
      'GET',
      '/admin/v1/dead-letters',
    );
    expect(listed.status).toBe(200);
    expect(listed.body.map((l) => [l.id, l.service, l.value])).toEqual([
      ['0', 'ledger', '{"type":"NoSuchCommand","payload":{}}'],
      ['1', 'wallet', 'not json'],
    ]);
    expect(listed.body[0]!.error.message).toContain('is not a ledger command');
    expect((await adminCall(exchange.baseUrl, token, 'GET', '/admin/v1/dead-letters?fromId=1&limit=1')).body).toEqual([
      listed.body[1],
    ]);
    expect((await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/dead-letters/%00/redrive')).body).toMatchObject(
      { code: -1100 },
    );
    expect((await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/dead-letters/7/redrive')).body).toMatchObject({
      code: -1130,
    });

    // Still not a command: it comes back, is parked again, and the partition goes on.
    expect((await adminCall(exchange.baseUrl, token, 'POST', '/admin/v1/dead-letters/0/redrive')).status).toBe(200);
    await waitFor(async () => (await deadLetters()).length === 3, 'the re-driven record to be parked again');
    expect((await deadLetters())[2]).toMatchObject({
      service: 'ledger',
      value: '{"type":"NoSuchCommand","payload":{}}',
    });
    expect(await poisonCount('ledger_poison_records_total', 'parked')).toBe(2);
  });

  it('replays to the live state: the decisions about the poison were journaled like any other', async () => {
    const { ctx } = replayContextOf(exchange.infrastructure);
    for (const target of [ledgerReplay, walletReplay]) {
      const result = await target.rebuild(ctx, { switch: false, force: false });
      expect({ target: target.service, failed: result.checks.filter((c) => !c.ok) }).toEqual({
        target: target.service,
        failed: [],
      });
      expect(checkNamed(result.checks, 'state hash').ok).toBe(true);
    }
  });
});
