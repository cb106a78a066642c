import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import {
  type LedgerCommand,
  type LedgerJournalEvent,
  type Markets,
  Topics,
  toPartitionRecord,
} from '@exchange/contracts';
import { partitionForKey } from '@exchange/messaging';
import { MARKETS } from '@exchange/platform';
import { publishLedgerCommands, readLedgerEvents } from '../../../../test/support/ledger-events';
import { startTestExchange, type TestExchange } from '../../../../test/support/test-exchange';
import { waitFor } from '../../../../test/support/wait-for';
import { FUNDING_PAYMENTS_PER_COMMAND } from '../domain/ledger-ids';

const SWAP = 'BTC-SWAP-USDT';
const BUYERS = FUNDING_PAYMENTS_PER_COMMAND + 10;
let n = 0;
function cmd(type: LedgerCommand['type'], payload: Record<string, unknown>): LedgerCommand {
  return { type, v: 1, id: `cc-${randomUUID()}-${++n}`, ts: Date.now(), payload } as LedgerCommand;
}

/**
 * A funding of more positions than one command may pay, through the ledger's processor on the
 * event log: the first part writes the continuation to the partition's own ledger.commands
 * partition in its atomic step, and the processor decides it as any command.
 */
describe('ledger processor: a funding continued on its own partition', () => {
  let exchange: TestExchange;

  // On Kafka when KAFKA_BROKERS is set: the set-up's ~1,500 commands of one partition are one batch, whose events pass 1 MB.
  beforeAll(async () => {
    exchange = await startTestExchange({ onKafkaWhenAvailable: true });
  });
  afterAll(async () => exchange.close());

  it('pays all 521 positions of partition 0 once, over two commands', async () => {
    const log = exchange.infrastructure.eventLog;
    const markets = exchange.app.get<Markets>(MARKETS);
    const partitions = await log.partitionCount(Topics.ledgerCommands.name);
    const users: string[] = [];
    for (let id = 710_000; users.length < BUYERS + 1; id++)
      if (partitionForKey(String(id), partitions) === 0) users.push(String(id));
    await publishLedgerCommands(
      log,
      users.flatMap((u) => [
        cmd('CreateUser', { userId: u, name: u, accountIds: [`${u}1`, `${u}2`, `${u}3`] }),
        cmd('CreditDeposit', { userId: u, accountId: `${u}1`, depositId: `${u}9`, asset: 'USDT', amount: '10000' }),
        cmd('TransferFunds', {
          userId: u,
          transferId: `${u}8`,
          fromAccountId: `${u}1`,
          toAccountId: `${u}3`,
          asset: 'USDT',
          amount: '10000',
        }),
      ]) as never,
    );
    const order = (u: string, orderId: string, side: string, quantity: string) =>
      cmd('PlaceContractOrder', {
        userId: u,
        accountId: `${u}3`,
        orderId,
        symbol: SWAP,
        side,
        price: '30000',
        quantity,
        leverage: '10',
        marketsVersion: markets.version,
        clientOrderId: `c${orderId}`,
      });
    const [seller, ...buyers] = users as [string, ...string[]];
    const sell = order(seller, '8800000', 'SELL_OPEN', String(BUYERS));
    await publishLedgerCommands(log, [sell] as never);
    const journal = async () => (await readLedgerEvents(log)) as LedgerJournalEvent[];
    await waitFor(
      async () => (await journal()).some((e) => e.payload.commandId === sell.id),
      'the sell order decided',
      120_000,
    );
    expect((await journal()).filter((e) => e.payload.commandId === sell.id).map((e) => e.type)).toEqual([
      'ContractOrderPlaced',
    ]);
    await publishLedgerCommands(log, buyers.map((u, i) => order(u, String(8_800_001 + i), 'BUY_OPEN', '1')) as never);
    await waitFor(
      async () =>
        (await journal()).some(
          (e) =>
            e.type === 'ContractOrderFilled' &&
            e.payload.order.orderId === '8800000' &&
            e.payload.order.status === 'FILLED',
        ),
      'every buyer filled',
      120_000,
    );

    const settle = {
      type: 'SettleFunding',
      v: 1,
      id: `fix-${randomUUID()}/0`,
      ts: Date.now(),
      payload: { symbol: SWAP, fundingTime: 8 * 3_600_000, rate: '0.0001', markPrice: '30000' },
    };
    await log.publish([toPartitionRecord(Topics.ledgerCommands, settle, 0, SWAP)]);
    const parts = async () =>
      (await journal()).filter((e) => e.type === 'FundingSettled' && e.payload.commandId.startsWith(settle.id));
    await waitFor(async () => (await parts()).length === 2, 'both parts of the funding', 60_000);

    const settled = await parts();
    expect(settled.map((e) => e.payload.commandId)).toEqual([settle.id, `${settle.id}/part:2`]);
    const paid = settled.flatMap((e) => (e.type === 'FundingSettled' ? e.payload.payments : []));
    expect(paid.length).toBe(BUYERS + 1);
    expect(new Set(paid.map((p) => `${p.accountId}|${p.side}`)).size).toBe(BUYERS + 1);
    // 1 contract × 0.001 × 30000 × 0.0001 = 0.003 from each LONG; the SHORT of 520 gets 1.56.
    expect(paid.filter((p) => p.side === 'LONG').every((p) => p.amount === '-0.003')).toBe(true);
    expect(paid.find((p) => p.side === 'SHORT')?.amount).toBe('1.56');
  }, 300_000);
});
