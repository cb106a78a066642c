import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeaderNames, type LedgerCommand, type LedgerJournalEvent, Topics } from '@exchange/contracts';
import { EmbeddedEventLog, type OutgoingRecord, ProcessedIds } from '@exchange/messaging';
import { createLogger, loadConfig } from '@exchange/platform';
import { decide } from '../domain/decide';
import { feeAccountIdOf, flowIdOf } from '../domain/ledger-ids';
import {
  DEFAULT_CLIENT_ID_WINDOW_MS as WINDOW,
  evolve,
  initialLedgerState,
  type LedgerState,
} from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { assets, btcusdt } from '../domain/spot-market.fixtures';
import { outcome, place } from '../domain/contracts/contract-ledger.fixtures';
import { shippedMarkets as markets } from '../domain/contracts/contract-scenario.fixtures';
import { partitionContextOf } from './partition-context';
import { LedgerRecovery } from './ledger-recovery';
import { decisionRecords } from './ledger-records';
import { LedgerSnapshotStore } from './ledger-snapshot-store';
import { LedgerSnapshots } from './ledger-snapshots';
import { entriesOf } from './partition-contracts';
import { allShares, captureShares } from './partition-shares';
import { capturePartition, type PartitionScope } from './partition-state';

const logger = createLogger('test', process.env.SPEC_LOG ?? 'silent');
const scope: PartitionScope = { partition: 0, partitionOf: () => 0, feeAccountId: feeAccountIdOf(0) };
const T0 = 1_700_000_000_000;
const USERS = 50;
/** User ids far above the system accounts' (fee, insurance, clearing: 1–264), as generated ones are. */
const FIRST = 1000;

/** One ledger partition as LedgerCommandProcessor runs it on the embedded log: a batch's decisions and any due snapshot in one publish. */
class Partition {
  state: LedgerState = initialLedgerState();
  processed = new ProcessedIds();
  offset = 0;
  /** Added to the clock: a jump past the retry window. */
  laterMs = 0;
  private readonly store: LedgerSnapshotStore;
  private readonly snapshots: LedgerSnapshots;
  private readonly recovery: LedgerRecovery;
  private n = 0;

  constructor(
    readonly log: EmbeddedEventLog,
    every: number,
  ) {
    const config = loadConfig({ LEDGER_SNAPSHOT_EVERY: String(every), LEDGER_SNAPSHOT_INTERVAL_MS: '0' });
    const clock = { now: () => this.now(this.offset) };
    this.store = new LedgerSnapshotStore(log, logger);
    this.snapshots = new LedgerSnapshots(this.store, log, clock, logger, config);
    this.recovery = new LedgerRecovery(this.store, log, logger);
  }

  /** A start (or a restart): the state rebuilt from the snapshots and the journal, as catchUp does. */
  async restart(): Promise<void> {
    this.state = initialLedgerState();
    const { processed, snapshot, changes } = await this.recovery.rebuild(this.state, scope, this.offset);
    this.processed = processed;
    this.snapshots.restored(0, snapshot, changes);
  }

  /** Decides a batch; resolves with the snapshot records it carried. */
  async batch(commands: [LedgerCommand['type'], Record<string, unknown>][]): Promise<OutgoingRecord[]> {
    return (await this.decided(commands)).snapshot;
  }

  /** Decides a batch; resolves with the snapshot records it carried and the events it journaled. */
  async decided(
    commands: [LedgerCommand['type'], Record<string, unknown>][],
  ): Promise<{ snapshot: OutgoingRecord[]; events: LedgerJournalEvent[] }> {
    const snapshot = await this.snapshots.dueRecords(this.state, scope, this.offset, this.processed, commands.length);
    const emit = [...snapshot];
    const journaled: LedgerJournalEvent[] = [];
    for (const [type, payload] of commands) {
      const offset = this.offset++;
      const now = this.now(offset);
      const v = type === 'ApplyOrderOutcome' ? 2 : 1;
      const command = { type, v, id: `c${++this.n}`, ts: now, payload } as LedgerCommand;
      const events = decide(command, this.state, {
        now,
        flowId: (k) => flowIdOf(offset, 0, k),
        asset: (a) => assets[a],
        symbol: () => btcusdt,
        contract: (symbol) => markets.contract(symbol),
        feeAccountId: scope.feeAccountId,
        partition: partitionContextOf(this.state, 0, 1, offset),
      });
      journaled.push(...events);
      for (const e of events) {
        this.snapshots.folding(0, e, this.state);
        evolve(this.state, e);
      }
      this.processed.add(command.id, now);
      this.snapshots.decided(0, command.id, now, events, this.state);
      // Partition 0 of ledger.events, as the ledger's partitioner puts its partition's users.
      for (const r of decisionRecords(events, undefined, this.offset, 0))
        if (r.topic === Topics.ledgerEvents.name) emit.push({ ...r, partition: 0 });
    }
    await this.log.publish(emit);
    return { snapshot, events: journaled };
  }

  private now(offset: number): number {
    return T0 + offset + this.laterMs;
  }
}

const unitsOf = (records: OutgoingRecord[]): string[] =>
  records.flatMap((r) => (r.headers?.['x-snapshot-chunk'] === '0' ? [r.headers['x-snapshot-unit']!] : []));

const deposit = (userId: string, amount = '1'): [LedgerCommand['type'], Record<string, unknown>] => [
  'CreditDeposit',
  { userId, accountId: `${userId}1`, depositId: `d${Math.random()}`, asset: 'USDT', amount },
];

/** An IOC BUY of user FIRST + 20 that the engine then ends: it holds its client id for the window. */
const ioc = (orderId: string, clientOrderId: string): [LedgerCommand['type'], Record<string, unknown>][] => {
  const order = { userId: String(FIRST + 20), accountId: `${FIRST + 20}1`, symbol: 'BTCUSDT', side: 'BUY', orderId };
  return [
    [
      'PlaceOrder',
      { ...order, clientOrderId, type: 'LIMIT', timeInForce: 'IOC', price: '100', quantity: '0.1', marketsVersion: 1 },
    ],
    ['ApplyOrderOutcome', { ...order, outcome: 'CANCELED', reason: 'IOC_REMAINDER', remainingQty: '0.1' }],
  ];
};

/** User FIRST + 30 and its contracts account (its third), which the tests of contract orders fund. */
const TRADER = { userId: String(FIRST + 30), spot: `${FIRST + 30}1`, contracts: `${FIRST + 30}3` };
const fundContracts: [LedgerCommand['type'], Record<string, unknown>] = [
  'TransferFunds',
  {
    userId: TRADER.userId,
    transferId: 'to-contracts',
    fromAccountId: TRADER.spot,
    toAccountId: TRADER.contracts,
    asset: 'USDT',
    amount: '500',
  },
];

/** An IOC contract order of TRADER that the engine then ends: it holds its client id for the window. */
const contractIoc = (orderId: string, clientOrderId: string): [LedgerCommand['type'], Record<string, unknown>][] => [
  [
    'PlaceContractOrder',
    place(TRADER, orderId, 'BUY_OPEN', '1', '29000', { leverage: '10', timeInForce: 'IOC', clientOrderId }),
  ],
  ['ApplyOrderOutcome', outcome(TRADER, orderId, 'BUY', 'CANCELED', 'IOC_REMAINDER')],
];

const rejectionOf = (events: LedgerJournalEvent[]): number | undefined =>
  events[0]?.type === 'CommandRejected' ? events[0].payload.code : undefined;

/** USERS users with funds, a resting order and a trade between two of them (the fee account has fees). */
async function populated(p: Partition): Promise<void> {
  for (let u = FIRST; u < FIRST + USERS; u++) {
    const userId = String(u);
    await p.batch([
      ['CreateUser', { userId, name: `user ${userId} ✓ 𝔘`, accountIds: [`${userId}1`, `${userId}2`, `${userId}3`] }],
      deposit(userId, '1000'),
      ['CreditDeposit', { userId, accountId: `${userId}1`, depositId: `b${userId}`, asset: 'BTC', amount: '2' }],
    ]);
  }
  const order = (userId: string, orderId: string, side: string): [LedgerCommand['type'], Record<string, unknown>] => [
    'PlaceOrder',
    {
      userId,
      accountId: `${userId}1`,
      orderId,
      clientOrderId: `o${orderId}`,
      symbol: 'BTCUSDT',
      side,
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '100',
      quantity: '1',
      marketsVersion: 1,
    },
  ];
  await p.batch([order('1010', '501', 'BUY'), order('1011', '502', 'SELL')]);
  for (const [orderId, userId, side, isMaker] of [
    ['501', '1010', 'BUY', true],
    ['502', '1011', 'SELL', false],
  ] as const)
    await p.batch([
      [
        'SettleTradeLeg',
        {
          tradeId: '1',
          symbol: 'BTCUSDT',
          orderId,
          accountId: `${userId}1`,
          userId,
          side,
          price: '100',
          qty: '0.4',
          quoteQty: '40',
          isMaker,
        },
      ],
    ]);
}

/** What deciding every command once gives, with the window's command ids: the judge of a restart. */
function judge(p: Partition): { hash: string; ids: string[] } {
  return {
    hash: ledgerStateHash(p.state),
    ids: p.processed
      .entries()
      .map(([id]) => id)
      .sort(),
  };
}

describe('incremental ledger snapshots', () => {
  let dir: string;
  let log: EmbeddedEventLog;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-snapshots-'));
    log = await EmbeddedEventLog.open({ dir, fsync: 'never' });
    await log.createTopics([Topics.ledgerEvents, Topics.ledgerSnapshots]);
  });
  afterEach(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes only the shares of the users changed since the last snapshot, whatever the partition holds', async () => {
    const p = new Partition(log, 10);
    await p.restart();
    await populated(p);
    // Until a snapshot is taken at a batch's start: only that batch is decided after it.
    while ((await p.batch(Array.from({ length: 10 }, () => deposit('1042')))).length === 0);
    const snapshot = await p.batch([deposit('1017')]);
    expect(unitsOf(snapshot).filter((u) => u.startsWith('share/'))).toEqual(['share/1042', 'share/0']);
    expect(unitsOf(snapshot).filter((u) => u.startsWith('ids/'))).toHaveLength(1);
    expect(snapshot.at(-1)?.headers?.[HeaderNames.messageType]).toBe('LedgerSnapshotMarker');
    expect(snapshot.reduce((chars, r) => chars + r.value.length, 0)).toBeLessThan(4000);
  });

  it('restarts from several incremental snapshots, each with other users changed, to the state a full fold gives', async () => {
    const p = new Partition(log, 7);
    await p.restart();
    await populated(p);
    for (let round = 0; round < 12; round++)
      await p.batch([deposit(String(FIRST + ((round * 7) % USERS))), deposit(String(FIRST + ((round * 3) % USERS)))]);
    const live = judge(p);
    await p.restart();
    expect(judge(p)).toEqual(live);
    // A second restart, after snapshots written from the restored state (the folded tail's users among them).
    for (let round = 0; round < 9; round++) await p.batch([deposit(String(FIRST + round))]);
    const later = judge(p);
    await p.restart();
    expect(judge(p)).toEqual(later);
  });

  it('restarts with the ended orders that hold their client ids, as the fold evicted and displaced them', async () => {
    const p = new Partition(log, 4);
    await p.restart();
    await populated(p);
    for (let i = 0; i < 12; i++) await p.batch(ioc(String(9000 + i), `id-${i}`));
    const held = judge(p);
    await p.restart();
    expect(judge(p)).toEqual(held);
    expect([...p.state.clientIdsEnded.get(`${FIRST + 20}1`)!.keys()]).toHaveLength(12);
    // Past the window: the next placements evict what ended before, and take ended ids again.
    p.laterMs = 11 * 60_000;
    for (let i = 12; i < 20; i++) await p.batch(ioc(String(9000 + i), `id-${i % 3}`));
    await p.batch([['PlaceOrder', { ...ioc('9100', 'open')[0]![1], timeInForce: 'GTC' }]]);
    for (let i = 20; i < 26; i++) await p.batch(ioc(String(9000 + i), `id-${i}`));
    const later = judge(p);
    expect(later.hash).not.toBe(held.hash);
    await p.restart();
    expect(judge(p)).toEqual(later);
    for (let i = 26; i < 33; i++) await p.batch([deposit(String(FIRST + i)), ...ioc(String(9000 + i), `id-${i % 5}`)]);
    const last = judge(p);
    await p.restart();
    expect(judge(p)).toEqual(last);
  });

  it('never takes records written after the last marker', async () => {
    const p = new Partition(log, 5);
    await p.restart();
    await populated(p);
    await p.batch(Array.from({ length: 6 }, () => deposit('1020')));
    const snapshot = await p.batch([deposit('1021')]);
    const live = judge(p);
    // The same shares, of another balance, without their marker: what a torn step would leave.
    expect(snapshot.filter((r) => r.value.includes('"1006"'))).toHaveLength(1);
    await log.publish(
      snapshot
        .filter((r) => r.headers?.[HeaderNames.messageType] !== 'LedgerSnapshotMarker')
        .map((r) => ({ ...r, value: r.value.replaceAll('"1006"', '"9999"') })),
    );
    await p.restart();
    expect(judge(p)).toEqual(live);
  });

  it('restores from a full snapshot of the earlier format, then writes every share once', async () => {
    const p = new Partition(log, 1_000_000);
    await p.restart();
    await populated(p);
    const eventsOffset = (await log.endOffsets(Topics.ledgerEvents.name))[0]!;
    await log.publish(fullSnapshotRecords(p.state, p.processed, p.offset, eventsOffset));
    await p.batch([deposit('1030'), deposit('1031')]);
    const live = judge(p);
    const restarted = new Partition(log, 2);
    restarted.offset = p.offset;
    await restarted.restart();
    expect(judge(restarted)).toEqual(live);
    await restarted.batch([deposit('1032'), deposit('1033')]);
    const first = await restarted.batch([deposit('1034')]);
    expect(unitsOf(first).filter((u) => u.startsWith('share/'))).toHaveLength(USERS + 1);
    await restarted.batch([deposit('1035')]);
    expect(unitsOf(await restarted.batch([deposit('1036')])).sort()).toEqual([
      'ids/1',
      'share/0',
      'share/1034',
      'share/1035',
    ]);
    const after = judge(restarted);
    await restarted.restart();
    expect(judge(restarted)).toEqual(after);
  });

  it('restarts with the client ids of contract orders ended before and after the snapshot: a repeat is refused within the window, taken after it', async () => {
    const p = new Partition(log, 4);
    await p.restart();
    await populated(p);
    await p.batch([fundContracts]);
    // Ended before a snapshot (written in its ring of ended orders)...
    for (let i = 0; i < 6; i++) await p.batch(contractIoc(String(8000 + i), `k-${i}`));
    while ((await p.batch([deposit('1042')])).length === 0);
    // ...and after it, folded from the journal on restart.
    await p.batch(contractIoc('8100', 'late'));
    const live = judge(p);
    await p.restart();
    expect(judge(p)).toEqual(live);
    expect([...p.state.contractClientIdsEnded.get(TRADER.contracts)!.keys()].sort()).toEqual(
      ['k-0', 'k-1', 'k-2', 'k-3', 'k-4', 'k-5', 'late'].sort(),
    );
    const again = async (orderId: string, clientOrderId: string) =>
      rejectionOf((await p.decided([contractIoc(orderId, clientOrderId)[0]!])).events);
    expect([await again('8200', 'k-0'), await again('8201', 'late')]).toEqual([-1141, -1141]);

    // Past the window, and restarted again: the ids are free, and held again by the orders that take them.
    p.laterMs = WINDOW;
    await p.batch([deposit('1043')]);
    await p.restart();
    expect([await again('8300', 'k-0'), await again('8301', 'late')]).toEqual([undefined, undefined]);
    await p.batch([contractIoc('8300', 'k-0')[1]!, contractIoc('8301', 'late')[1]!]);
    const later = judge(p);
    await p.restart();
    expect(judge(p)).toEqual(later);
    expect([...p.state.contractClientIdsEnded.get(TRADER.contracts)!.keys()].sort()).toEqual(['k-0', 'late']);
    expect(await again('8302', 'k-3')).toBeUndefined();
    expect(await again('8303', 'late')).toBe(-1141);
  });

  it("writes a contracts account's ended orders once: its share in a later snapshot does not grow with them", async () => {
    const p = new Partition(log, 2);
    await p.restart();
    await populated(p);
    await p.batch([fundContracts]);
    // Each batch is a snapshot's worth: the one at the next batch's start writes this order's end.
    const written: OutgoingRecord[][] = [];
    for (let i = 0; i < 60; i++)
      written.push(await p.batch(contractIoc(String(8000 + i), `k-${String(i).padStart(3, '0')}`)));
    const [early, late] = [written[9]!, written[59]!];
    // 50 more ended orders held between them: the account's share and the orders ended since, but for a few digits.
    const chars = (records: OutgoingRecord[]) =>
      records
        .filter((r) => [`share/${TRADER.userId}`, 'ended/'].some((u) => r.headers?.['x-snapshot-unit']?.startsWith(u)))
        .reduce((sum, r) => sum + r.value.length, 0);
    expect(chars(late) - chars(early)).toBeLessThan(8);
    expect(unitsOf(late).map((u) => u.replace(/\d+$/, ''))).toEqual(['share/', 'share/', 'ids/', 'ended/']);
    expect(unitsOf(late).slice(0, 2)).toEqual([`share/${TRADER.userId}`, 'share/0']);
    const share = JSON.parse(late[0]!.value);
    expect(share.contracts.clientIds).toEqual([[TRADER.contracts, []]]);
    expect(share.contracts.endedClientIds).toEqual([]);
    expect(JSON.parse(late[3]!.value)).toEqual([
      [expect.any(Number), [TRADER.contracts, 'k-058', '8058', expect.any(Number)]],
    ]);
    expect(p.state.contractClientIdsEnded.get(TRADER.contracts)?.size).toBe(60);
  });

  it('restores a snapshot of the earlier format whose shares hold the ended contract orders, then writes every share once', async () => {
    const p = new Partition(log, 1_000_000);
    await p.restart();
    await populated(p);
    await p.batch([fundContracts]);
    for (let i = 0; i < 3; i++) await p.batch(contractIoc(String(8000 + i), `k-${i}`));
    const eventsOffset = (await log.endOffsets(Topics.ledgerEvents.name))[0]!;
    await log.publish(contractIdsInShares(log, p.state, p.processed, p.offset, eventsOffset));
    await p.batch([deposit('1030')]);
    const live = judge(p);
    const restarted = new Partition(log, 2);
    restarted.offset = p.offset;
    await restarted.restart();
    expect(judge(restarted)).toEqual(live);
    // The account changes, so its share is written again: without the others' and the ring's, its ended ids were lost.
    await restarted.batch(contractIoc('8010', 'k-10'));
    const first = await restarted.batch([deposit('1034')]);
    expect(unitsOf(first).filter((u) => u.startsWith('share/'))).toHaveLength(USERS + 1);
    expect(unitsOf(first).filter((u) => u.startsWith('ended/'))).toEqual(['ended/0']);
    await restarted.batch([deposit('1035'), deposit('1036')]);
    const after = judge(restarted);
    await restarted.restart();
    expect(judge(restarted)).toEqual(after);
    expect([...restarted.state.contractClientIdsEnded.get(TRADER.contracts)!.keys()]).toEqual([
      'k-0',
      'k-1',
      'k-2',
      'k-10',
    ]);
  });
});

/** A snapshot as versions before incremental snapshots wrote it: the whole partition, in chunks keyed `<partition>/<chunk>`. */
function fullSnapshotRecords(
  state: LedgerState,
  processed: ProcessedIds,
  inputOffset: number,
  eventsOffset: number,
): OutgoingRecord[] {
  const text = JSON.stringify({ v: 1, ts: T0, ...capturePartition(state, scope, processed.entries()) });
  const chunks = [text.slice(0, 1000), text.slice(1000)];
  return chunks.map((value, chunk) => ({
    topic: Topics.ledgerSnapshots.name,
    key: `0/${chunk}`,
    partition: 0,
    value,
    headers: {
      [HeaderNames.messageId]: `ledger-snapshot@0:${inputOffset}/${chunk}`,
      [HeaderNames.messageType]: 'LedgerPartitionSnapshot',
      'x-snapshot-partition': '0',
      'x-snapshot-input-offset': String(inputOffset),
      'x-snapshot-events-offset': String(eventsOffset),
      'x-snapshot-chunk': String(chunk),
      'x-snapshot-chunks': '2',
    },
  }));
}

/** An incremental snapshot as the version before the ring held contract orders wrote it (marker v2): each share with its contract client ids, ended ones included. */
function contractIdsInShares(
  log: EmbeddedEventLog,
  state: LedgerState,
  processed: ProcessedIds,
  inputOffset: number,
  eventsOffset: number,
): OutgoingRecord[] {
  const shares = captureShares(state, scope, allShares(state, scope), new Map());
  for (const share of shares.values()) {
    const accountIds = new Set(share.accounts.map((a) => a.record.accountId));
    share.contracts!.clientIds = entriesOf(state.contractClientIds, accountIds);
    share.contracts!.endedClientIds = entriesOf(state.contractClientIdsEnded, accountIds);
  }
  const records = new LedgerSnapshotStore(log, logger).records({
    partition: 0,
    marker: { seq: 1, inputOffset, eventsOffset, ring: { epoch: inputOffset, ids: 1, ended: 0, endedSeq: 0 } },
    shares,
    ids: { slot: 0, entries: processed.entries() },
    ended: undefined,
  });
  return records.map((r) =>
    r.headers?.[HeaderNames.messageType] === 'LedgerSnapshotMarker'
      ? { ...r, value: r.value.replace('"v":3', '"v":2') }
      : r,
  );
}
