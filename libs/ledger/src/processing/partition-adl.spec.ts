import { fundingOf, leg, place } from '../domain/contracts/contract-ledger.fixtures';
import { shippedMarkets as markets } from '../domain/contracts/contract-scenario.fixtures';
import { cmd, PartitionedLedger } from '../domain/contracts/partitioned-ledger.fixtures';
import { initialLedgerState } from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { capturePartition, forgetPartition, type PartitionScope, restorePartition } from './partition-state';

const SWAP = 'BTC-SWAP-USDT';
const USERS = [
  { userId: '100', spot: '1001', contracts: '1003', partition: 0 },
  { userId: '200', spot: '2001', contracts: '2003', partition: 1 },
  { userId: '300', spot: '3001', contracts: '3003', partition: 2 },
];
const partitionOf = (userId: string) => USERS.find((u) => u.userId === userId)?.partition ?? 0;
const scopeOf = (partition: number): PartitionScope => ({
  partition,
  partitionOf,
  feeAccountId: String(partition + 1),
});

/** Alice's LONG bankrupt in partition 0; its ADL asked partitions 1 and 2, and only 1 has answered. */
function midAdl(): PartitionedLedger {
  const ledger = new PartitionedLedger({ systemUsers: ['7', '8', '9'], partitionOf, count: 3 });
  for (const u of USERS) for (const [type, payload] of fundingOf(u, '1000')) ledger.given(type, payload, u.partition);
  const [alice, bob, carol] = USERS as [(typeof USERS)[0], (typeof USERS)[0], (typeof USERS)[0]];
  ledger.given('PlaceContractOrder', place(alice, '11', 'BUY_OPEN', '10', '30000', { leverage: '10' }), 0);
  ledger.given('PlaceContractOrder', place(bob, '21', 'SELL_OPEN', '4', '30000', { leverage: '10' }), 1);
  ledger.given('PlaceContractOrder', place(carol, '31', 'SELL_OPEN', '6', '30000', { leverage: '10' }), 2);
  ledger.given('SettleTradeLeg', { ...leg(alice, '11', 'BUY', '4', '30000', true), tradeId: '1' }, 0);
  ledger.given('SettleTradeLeg', { ...leg(bob, '21', 'SELL', '4', '30000', false), tradeId: '1' }, 1);
  ledger.given('SettleTradeLeg', { ...leg(alice, '11', 'BUY', '6', '30000', true), tradeId: '2' }, 0);
  ledger.given('SettleTradeLeg', { ...leg(carol, '31', 'SELL', '6', '30000', false), tradeId: '2' }, 2);
  const mark = { symbol: SWAP, markPrice: '26000', indexPrice: '26000', marketsVersion: markets.version };
  ledger.when(cmd('MarkContractPrice', mark, 'm/0'), 0);
  const toBob = ledger.outbox.shift()!;
  ledger.when(toBob.command, toBob.partition);
  const answer = ledger.outbox.find((c) => c.command.type === 'AdlCandidates')!;
  ledger.outbox.splice(ledger.outbox.indexOf(answer), 1);
  ledger.when(answer.command, answer.partition);
  return ledger;
}

describe('an ADL in flight in the partition snapshots', () => {
  it('carries the pending ADL with its requester and each reservation with its partition, through JSON', () => {
    const live = midAdl();
    expect(live.state.contracts.adlPending.size).toBe(1);
    expect(live.state.contracts.adlReserved.size).toBe(2);
    const snapshots = [0, 1, 2].map((p) => JSON.parse(JSON.stringify(capturePartition(live.state, scopeOf(p), []))));
    const restored = initialLedgerState();
    for (const snapshot of snapshots) restorePartition(restored, snapshot);
    expect(ledgerStateHash(restored)).toBe(ledgerStateHash(live.state));
    // The requester's partition alone, forgotten and restored: the pending ADL and its own reservation go and come back with it.
    forgetPartition(live.state, scopeOf(0));
    expect(live.state.contracts.adlPending.size).toBe(0);
    expect(live.state.contracts.adlReserved.size).toBe(1);
    restorePartition(live.state, snapshots[0]);
    expect(ledgerStateHash(live.state)).toBe(ledgerStateHash(restored));
  });
});
