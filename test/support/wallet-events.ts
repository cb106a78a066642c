import { randomUUID } from 'node:crypto';
import { type LedgerCommand, Topics, type WalletEvent } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { publishLedgerCommands } from './ledger-events';

/** Every record of wallet.events with its parsed event, in partition order (per-user order is what matters). */
export async function readWalletRecords(log: EventLog): Promise<{ key: string; value: string; event: WalletEvent }[]> {
  const out: { key: string; value: string; event: WalletEvent }[] = [];
  for (let p = 0; p < (await log.partitionCount(Topics.walletEvents.name)); p++) {
    await log.read(
      Topics.walletEvents.name,
      p,
      0,
      async (records) =>
        void out.push(
          ...records.map((r) => ({ key: r.key, value: r.value, event: JSON.parse(r.value) as WalletEvent })),
        ),
    );
  }
  return out;
}

export async function readWalletEvents(log: EventLog): Promise<WalletEvent[]> {
  return (await readWalletRecords(log)).map((r) => r.event);
}

/**
 * A user with 10 ETH who asks for a 3 ETH withdrawal (fee 0.005) straight on ledger.commands: the
 * ledger holds it and hands it to the wallet, which tracks it at broker audit (status 1).
 */
export async function requestHeldWithdrawal(
  log: EventLog,
  user: { userId: string; accountId: string },
  withdrawalId: string,
): Promise<void> {
  const id = (): string => `held-${randomUUID()}`;
  await publishLedgerCommands(log, [
    {
      type: 'CreateUser',
      v: 1,
      id: id(),
      ts: 1,
      payload: {
        userId: user.userId,
        name: 'w',
        accountIds: [user.accountId, `${user.accountId}2`, `${user.accountId}3`],
      },
    },
    { type: 'CreditDeposit', v: 1, id: id(), ts: 1, payload: { ...user, depositId: '1', asset: 'ETH', amount: '10' } },
  ]);
  const request: LedgerCommand = {
    type: 'RequestWithdrawal',
    v: 1,
    id: id(),
    ts: 1,
    payload: {
      ...user,
      withdrawalId,
      clientOrderId: `c-${withdrawalId}`,
      asset: 'ETH',
      chainType: 'ETH',
      address: '0xdead',
      addressExt: '',
      quantity: '3',
      fee: '0.005',
    },
  };
  await log.publish([{ topic: Topics.ledgerCommands.name, key: user.userId, value: JSON.stringify(request) }]);
}
