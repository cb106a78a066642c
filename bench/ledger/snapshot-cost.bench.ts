// bench/ledger: what one ledger snapshot costs in its batch's step (issue 16), on a partition built
// in memory: USERS idle users (3 accounts, 2 balances, an api key each), one hot user whose IOC
// orders of the retry window are final and hold their client ids (HOT_FINAL), and the window's
// processed command ids (as many). The full snapshot of earlier versions (capturePartition and
// its JSON) against the incremental one after EVERY commands of the hot user (its share, the
// partition's, the ids decided since). Run: `node --expose-gc scripts/run.js bench/ledger/snapshot-cost.bench.ts`.
// Then the same for contracts, on a partition of its own: USERS idle users with a contracts account
// holding a position and an open order each, and a hot contracts account whose ended orders of the
// window hold their client ids (HOT_FINAL); its incremental snapshot after EVERY of its commands.
import type { ContractOrderRecord, LedgerOrderRecord } from '@exchange/contracts';
import { type EventLog, ProcessedIds } from '@exchange/messaging';
import { createLogger, loadConfig } from '@exchange/platform';
import { feeAccountIdOf } from '../../libs/ledger/src/domain/ledger-ids';
import { setBalance, setOrder, setPosition } from '../../libs/ledger/src/domain/contracts/contract-state';
import { Money } from '../../libs/ledger/src/domain/ledger-money';
import { initialLedgerState, type LedgerState } from '../../libs/ledger/src/domain/ledger-state';
import { LedgerSnapshotStore } from '../../libs/ledger/src/processing/ledger-snapshot-store';
import { LedgerSnapshots } from '../../libs/ledger/src/processing/ledger-snapshots';
import { PartitionChanges } from '../../libs/ledger/src/processing/partition-changes';
import { capturePartition, type PartitionScope } from '../../libs/ledger/src/processing/partition-state';

const USERS = Number(process.env.USERS ?? 2000);
const HOT_FINAL = Number(process.env.HOT_FINAL ?? 150_000);
const EVERY = Number(process.env.EVERY ?? 20_000);
const RUNS = Number(process.env.RUNS ?? 5);
const scope: PartitionScope = { partition: 0, partitionOf: () => 0, feeAccountId: feeAccountIdOf(0) };
const T0 = 1_795_000_000_000;

function partition(): { state: LedgerState; processed: ProcessedIds } {
  const state = initialLedgerState();
  const processed = new ProcessedIds();
  for (let u = 0; u <= USERS; u++) {
    const userId = String(1_000_000 + u);
    const accountIds = [1, 2, 3].map((i) => `${userId}${i}`);
    state.users.set(userId, { userId, name: `user ${userId}`, seq: 10, accountIds });
    for (const accountId of accountIds)
      state.accounts.set(accountId, {
        record: { accountId, userId, accountType: 1, accountIndex: 0, accountName: '' },
        flags: { canTrade: true, canWithdraw: true, canDeposit: true },
        balances: new Map([
          ['USDT', { free: new Money('100000.123'), locked: new Money('0') }],
          ['BTC', { free: new Money('1.5'), locked: new Money('0') }],
        ]),
      });
    state.apiKeys.set(`key${userId}`, {
      apiKey: `key${userId}`,
      accountId: accountIds[0]!,
      userId,
      permissions: ['READ', 'TRADE'] as never,
      revoked: false,
    });
  }
  const hot = `${1_000_000 + USERS}1`;
  const index = new Map<string, string>();
  const ended = new Map<string, number>();
  for (let i = 0; i < HOT_FINAL; i++) {
    const orderId = String(7_000_000_000_000 + i);
    const clientOrderId = `web_${orderId}`;
    const order = {
      orderId,
      clientOrderId,
      accountId: hot,
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      price: '1000',
      origQty: '0.01',
      origQuoteOrderQty: '0',
      reservedAsset: 'USDT',
      reservedAmount: '10',
      marketsVersion: 1,
      userId: String(1_000_000 + USERS),
      executedQty: '0',
      cummulativeQuoteQty: '0',
      status: 'CANCELED',
      isWorking: false,
      time: T0 + i,
      updateTime: T0 + i,
      reservationLeft: '0',
      finalTime: T0 + i,
    } as unknown as LedgerOrderRecord;
    state.orders.set(orderId, order);
    index.set(clientOrderId, orderId);
    ended.set(clientOrderId, T0 + i);
    processed.add(`cmd-${orderId}-place`, T0 + i);
  }
  state.clientIds.set(hot, index);
  state.clientIdsEnded.set(hot, ended);
  return { state, processed };
}

/** The contracts partition: every user's third account is its contracts account. */
function contractsPartition(): { state: LedgerState; processed: ProcessedIds; ended: unknown[] } {
  const state = initialLedgerState();
  const processed = new ProcessedIds();
  const hotUser = String(1_000_000 + USERS);
  for (let u = 0; u <= USERS; u++) {
    const userId = String(1_000_000 + u);
    const accountIds = [1, 2, 3].map((i) => `${userId}${i}`);
    state.users.set(userId, { userId, name: `user ${userId}`, seq: 10, accountIds });
    accountIds.forEach((accountId, i) =>
      state.accounts.set(accountId, {
        record: { accountId, userId, accountType: (i + 1) as 1 | 2 | 3, accountIndex: 0, accountName: '' },
        flags: { canTrade: true, canWithdraw: true, canDeposit: true },
        balances: new Map(),
      }),
    );
    const accountId = accountIds[2]!;
    setBalance(state.contracts, { accountId, free: '1000.5', locked: '3.1', positionMargin: '30' });
    if (userId === hotUser) continue;
    setPosition(state.contracts, {
      accountId,
      symbol: 'BTC-SWAP-USDT',
      side: 'LONG',
      size: '10',
      available: '10',
      opening: '1',
      entryValue: '300',
      avgPrice: '',
      margin: '30',
      realizedPnl: '0',
      leverage: '10',
      flp: '27150.5',
    });
    const order: ContractOrderRecord = {
      orderId: String(8_000_000_000_000 + u),
      accountId,
      userId,
      symbol: 'BTC-SWAP-USDT',
      side: 'BUY_OPEN',
      price: '29000',
      quantity: '1',
      leverage: '10',
      executedQty: '0',
      marginLocked: '3.1',
      marginLeft: '3.1',
      status: 'NEW',
      time: T0,
      marketsVersion: 1,
      orderType: 'LIMIT',
      clientOrderId: `web_${u}`,
    };
    setOrder(state.contracts, order);
    state.contractClientIds.set(accountId, new Map([[order.clientOrderId!, order.orderId]]));
  }
  const hot = `${hotUser}3`;
  const index = new Map<string, string>();
  const endedIds = new Map<string, number>();
  const ended: unknown[] = [];
  for (let i = 0; i < HOT_FINAL; i++) {
    const orderId = String(7_000_000_000_000 + i);
    const clientOrderId = `web_${orderId}`;
    index.set(clientOrderId, orderId);
    endedIds.set(clientOrderId, T0 + i);
    ended.push([hot, clientOrderId, orderId, T0 + i]);
    processed.add(`cmd-${orderId}-place`, T0 + i);
  }
  state.contractClientIds.set(hot, index);
  state.contractClientIdsEnded.set(hot, endedIds);
  return { state, processed, ended };
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  // The garbage of what ran before is collected outside the timing (run with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  // CPU time, not wall time: the machine is shared.
  const started = process.cpuUsage();
  const value = await f();
  const used = process.cpuUsage(started);
  return { ms: (used.user + used.system) / 1000, value };
}

/** A full snapshot of the partition, and an incremental one after the hot user's last EVERY commands (its orders ended): CPU ms and chars of each run. */
async function measure(
  state: LedgerState,
  processed: ProcessedIds,
  hotUser: string,
  ended: unknown[],
): Promise<{ full: number[]; incremental: number[]; sizes: { full: number; incremental: number } }> {
  const recent = processed.entries().slice(-EVERY);
  const log = { endOffsets: async () => [0] } as unknown as EventLog;
  const logger = createLogger('bench', 'silent');
  const config = loadConfig({ LEDGER_SNAPSHOT_EVERY: '1', LEDGER_SNAPSHOT_INTERVAL_MS: '0' });
  const snapshots = new LedgerSnapshots(new LedgerSnapshotStore(log, logger), log, { now: () => T0 }, logger, config);
  const full: number[] = [];
  const incremental: number[] = [];
  let sizes = { full: 0, incremental: 0 };
  for (let run = 0; run < RUNS; run++) {
    const f = await timed(async () =>
      process.env.ONLY_INCREMENTAL
        ? ''
        : JSON.stringify({ v: 1, ts: T0, ...capturePartition(state, scope, processed.entries()) }),
    );
    full.push(f.ms);
    // What the hot user's last EVERY commands changed, as the processor notes it.
    const changes = new PartitionChanges();
    changes.users.add(hotUser);
    for (const [id, at] of recent) changes.noteId(id, at);
    // Untyped: a version that keeps contract orders' ends in the shares reads them as spot order ids it does not hold.
    (changes.ended as unknown[]).push(...ended.slice(-EVERY));
    snapshots.restored(0, undefined, changes);
    await snapshots.dueRecords(state, scope, 0, processed, 1);
    const i = await timed(() => snapshots.dueRecords(state, scope, 1, processed, 1));
    incremental.push(i.ms);
    const chars = (texts: { value: string }[]) => texts.reduce((sum, t) => sum + t.value.length, 0);
    sizes = { full: f.value.length, incremental: chars(i.value) };
  }
  return { full, incremental, sizes };
}

function report(m: Awaited<ReturnType<typeof measure>>): void {
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
  console.log(
    `full snapshot:        median ${med(m.full)} ms CPU (${fmt(m.full)}), ${(m.sizes.full / 1e6).toFixed(1)} M chars`,
  );
  console.log(
    `incremental snapshot: median ${med(m.incremental)} ms CPU (${fmt(m.incremental)}), ${(m.sizes.incremental / 1e6).toFixed(2)} M chars`,
  );
}

async function main(): Promise<void> {
  const hotUser = String(1_000_000 + USERS);
  const spot = partition();
  console.log(
    `partition: ${USERS} idle users, a hot user with ${HOT_FINAL} final orders holding client ids, ${spot.processed.size} processed ids; incremental after ${EVERY} commands of the hot user (its IOC orders ended)`,
  );
  report(await measure(spot.state, spot.processed, hotUser, [...spot.state.orders.keys()]));
  const contracts = contractsPartition();
  console.log(
    `contracts partition: ${USERS} idle users with a position and an open order each, a hot contracts account with ${HOT_FINAL} ended orders holding client ids, ${contracts.processed.size} processed ids; incremental after ${EVERY} commands of the hot user (its IOC orders ended)`,
  );
  report(await measure(contracts.state, contracts.processed, hotUser, contracts.ended));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
