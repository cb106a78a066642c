import { type LedgerCommand, ledgerCommandSchema } from '@exchange/contracts';
import {
  ALICE as TRADER,
  funded,
  fundingOf,
  Ledger,
  leg as tradeLeg,
  outcome,
  place as placeOrder,
} from '../domain/contracts/contract-ledger.fixtures';
import { shippedMarkets as markets } from '../domain/contracts/contract-scenario.fixtures';
import { type ContractsState, fundingKey, setBalance } from '../domain/contracts/contract-state';
import { clearingAccountIdOf, insuranceAccountIdOf } from '../domain/ledger-ids';
import { Money } from '../domain/ledger-money';
import { decide, type TradingContext } from '../domain/decide';
import {
  DEFAULT_CLIENT_ID_WINDOW_MS as WINDOW,
  evolve,
  initialLedgerState,
  type LedgerState,
} from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { capturePartition, forgetPartition, type PartitionScope, restorePartition } from './partition-state';

const SWAP = 'BTC-SWAP-USDT';
/** Two partitions by the parity of the user id, each with its fee account. */
const partitionOf = (userId: string): number => Number(userId) % 2;
const scopeOf = (partition: number): PartitionScope => ({
  partition,
  partitionOf,
  feeAccountId: `900000000${partition}`,
});
const ALICE = { userId: '100', spot: '1001', contracts: '1003' };
const BOB = { userId: '201', spot: '2011', contracts: '2013' };

/** Both users trade the swap: a partly filled long and short (liquidation prices), resting rests with client ids (stop and per-position indexes), one with its cancel requested, one ended. */
function trading(): LedgerState {
  const state = initialLedgerState();
  let n = 0;
  const send = (type: LedgerCommand['type'], payload: Record<string, unknown>): void => {
    const command = ledgerCommandSchema.parse({
      type,
      v: type === 'ApplyOrderOutcome' ? 2 : 1,
      id: `c${++n}`,
      ts: 1_700_000_000_000 + n,
      payload,
    });
    const userId = String(payload['userId']);
    const ctx: TradingContext = {
      now: command.ts,
      flowId: (k) => String(n * 16 + k + 1),
      asset: (a) => markets.asset(a),
      symbol: (s) => markets.symbol(s),
      contract: (s) => markets.contract(s),
      feeAccountId: scopeOf(partitionOf(userId)).feeAccountId,
    };
    const events = decide(command, state, ctx);
    if (events[0]?.type === 'CommandRejected') throw new Error(`${type} rejected: ${events[0].payload.msg}`);
    for (const e of events) evolve(state, e);
  };
  const place = (who: typeof ALICE, orderId: string, side: string, quantity: string, price: string): void =>
    send('PlaceContractOrder', placeOrder(who, orderId, side, quantity, price, { leverage: '20' }));
  const leg = (who: typeof ALICE, orderId: string, side: 'BUY' | 'SELL', isMaker: boolean): void =>
    send('SettleTradeLeg', tradeLeg(who, orderId, side, '4', '30000', isMaker));
  for (const [type, payload] of [...fundingOf(ALICE), ...fundingOf(BOB)]) send(type, payload);
  place(ALICE, '11', 'BUY_OPEN', '10', '30000');
  place(BOB, '12', 'SELL_OPEN', '10', '30000');
  leg(ALICE, '11', 'BUY', true);
  leg(BOB, '12', 'SELL', false);
  place(ALICE, '13', 'BUY_OPEN', '2', '29000');
  place(BOB, '14', 'SELL_OPEN', '2', '31000');
  // A cancel on its way to the engine: the order stays open, marked so.
  send('RequestContractCancel', { userId: BOB.userId, accountId: BOB.contracts, orderId: '14' });
  // An ended order: its client id stays held for the retry window.
  place(BOB, '15', 'SELL_OPEN', '1', '31000');
  send('ApplyOrderOutcome', outcome(BOB, '15', 'SELL', 'CANCELED', 'USER'));
  return state;
}

/** The derived indexes a hash does not cover: liquidation prices per position, open orders per position. */
function indexes(c: ContractsState): unknown {
  const liquidation = [...c.positions.keys()].sort().map((key) => {
    const p = c.positions.get(key)!;
    return [key, c.liquidation.get(`${p.symbol}|${p.side}`)?.priceOf(key)?.toFixed()];
  });
  const perPosition = [...c.positionOrders].map(([key, orders]) => [key, [...orders]]).sort();
  return { liquidation, perPosition };
}

describe("a partition's contracts, as a snapshot holds them", () => {
  it('restores USDT, positions, open orders, client ids and the derived indexes through JSON', () => {
    const live = trading();
    expect(indexes(live.contracts)).toMatchObject({
      liquidation: [
        [expect.any(String), expect.stringMatching(/^[1-9]/)],
        [expect.any(String), expect.stringMatching(/^[1-9]/)],
      ],
    });
    const restored = initialLedgerState();
    for (const partition of [0, 1])
      restorePartition(restored, JSON.parse(JSON.stringify(capturePartition(live, scopeOf(partition), []))));
    expect(ledgerStateHash(restored)).toBe(ledgerStateHash(live));
    expect(indexes(restored.contracts)).toEqual(indexes(live.contracts));
    expect(restored.contractClientIds).toEqual(live.contractClientIds);
    expect([...restored.contractClientIdsEnded.keys()]).toEqual([BOB.contracts]);
    expect(restored.contractClientIdsEnded).toEqual(live.contractClientIdsEnded);
    expect([
      live.contracts.orders.get('14')?.cancelRequested,
      restored.contracts.orders.get('14')?.cancelRequested,
    ]).toEqual([true, true]);
    expect(restored.contracts.balances.get('9000000000')?.free.toFixed()).toBe(
      live.contracts.balances.get('9000000000')?.free.toFixed(),
    );
  });

  it("forgets one partition's contracts and nothing else, and puts them back exactly", () => {
    const live = trading();
    const before = { hash: ledgerStateHash(live), indexes: indexes(live.contracts) };
    const captured = capturePartition(live, scopeOf(1), []);
    forgetPartition(live, scopeOf(1));
    expect([...live.contracts.orders.keys()].sort()).toEqual(['11', '13']);
    expect([...live.contracts.positions.values()].map((p) => p.accountId)).toEqual([ALICE.contracts]);
    expect(live.contracts.balances.has(BOB.contracts) || live.contracts.balances.has('9000000001')).toBe(false);
    expect(live.contractClientIds.has(BOB.contracts) || live.contractClientIdsEnded.has(BOB.contracts)).toBe(false);
    expect([...live.contracts.liquidation.values()].reduce((n, heap) => n + heap.size, 0)).toBe(1);
    restorePartition(live, captured);
    expect({ hash: ledgerStateHash(live), indexes: indexes(live.contracts) }).toEqual(before);
  });

  it("keeps each partition's insurance share, clearing account, last funding times and marks with it", () => {
    const live = trading();
    for (const partition of [0, 1]) {
      setBalance(live.contracts, {
        accountId: insuranceAccountIdOf(partition),
        free: `${partition + 7}`,
        locked: '0',
        positionMargin: '0',
      });
      setBalance(live.contracts, {
        accountId: clearingAccountIdOf(partition),
        free: `-${partition + 1}`,
        locked: '0',
        positionMargin: '0',
      });
      live.contracts.fundings.set(fundingKey(SWAP, insuranceAccountIdOf(partition)), 1_700_000_000_000 + partition);
      live.contracts.marks.set(fundingKey(SWAP, insuranceAccountIdOf(partition)), new Money(`3000${partition}.5`));
    }
    const marks = () => [...live.contracts.marks].map(([key, mark]) => [key, mark.toFixed()]);
    const before = { hash: ledgerStateHash(live), fundings: [...live.contracts.fundings], marks: marks() };
    const captured = JSON.parse(JSON.stringify(capturePartition(live, scopeOf(1), [])));
    forgetPartition(live, scopeOf(1));
    expect([...live.contracts.fundings.keys()]).toEqual([fundingKey(SWAP, insuranceAccountIdOf(0))]);
    expect(marks()).toEqual([[fundingKey(SWAP, insuranceAccountIdOf(0)), '30000.5']]);
    expect(
      live.contracts.balances.has(insuranceAccountIdOf(1)) || live.contracts.balances.has(clearingAccountIdOf(1)),
    ).toBe(false);
    expect(live.contracts.balances.get(clearingAccountIdOf(0))?.free.toFixed()).toBe('-1');
    restorePartition(live, captured);
    expect({ hash: ledgerStateHash(live), fundings: [...live.contracts.fundings], marks: marks() }).toEqual(before);
  });

  it('keeps the client ids of ended orders with their end times: restored, it refuses and frees them as the live ledger, and hashes as a replay', () => {
    const live = funded();
    live.given(
      'PlaceContractOrder',
      placeOrder(TRADER, '41', 'BUY_OPEN', '1', '29000', { leverage: '10', timeInForce: 'IOC', clientOrderId: 'gone' }),
    );
    live.given('ApplyOrderOutcome', outcome(TRADER, '41', 'BUY', 'CANCELED', 'IOC_REMAINDER'));
    const endedAt = live.decidedAt;
    const restored = new Ledger();
    for (const partition of [0, 1])
      restorePartition(
        restored.state,
        JSON.parse(JSON.stringify(capturePartition(live.state, scopeOf(partition), []))),
      );
    const replayed = initialLedgerState();
    for (const e of live.journal) evolve(replayed, e);
    expect([...restored.state.contractClientIdsEnded]).toEqual([[TRADER.contracts, new Map([['gone', endedAt]])]]);
    expect(ledgerStateHash(restored.state)).toBe(ledgerStateHash(live.state));
    expect(ledgerStateHash(restored.state)).toBe(ledgerStateHash(replayed));

    const again = (ledger: Ledger, orderId: string) =>
      ledger.rejection(
        'PlaceContractOrder',
        placeOrder(TRADER, orderId, 'BUY_OPEN', '1', '29000', { leverage: '10', clientOrderId: 'gone' }),
      );
    for (const ledger of [live, restored]) ledger.decideNextAt(endedAt + WINDOW - 1);
    expect([again(live, '42'), again(restored, '42')]).toEqual([-1141, -1141]);
    for (const ledger of [live, restored]) ledger.decideNextAt(endedAt + WINDOW);
    expect([again(live, '43'), again(restored, '43')]).toEqual([undefined, undefined]);
    expect(restored.state.contractClientIdsEnded.size).toBe(0);
  });

  it("carries each partition's uncovered losses in its own snapshot, into the state hash", () => {
    const live = trading();
    // What no margin paid stays with the account whose settlement left it: a user's fill, a fund share's funding.
    live.contracts.uncovered.set(ALICE.contracts, new Money('12.5'));
    live.contracts.uncovered.set(insuranceAccountIdOf(1), new Money('0.75'));
    const uncovered = (c: ContractsState) => [...c.uncovered].map(([id, amount]) => [id, amount.toFixed()]).sort();
    const hash = ledgerStateHash(live);
    const snapshots = [0, 1].map((p) => JSON.parse(JSON.stringify(capturePartition(live, scopeOf(p), []))));
    expect(snapshots.map((snapshot) => snapshot.contracts.uncovered)).toEqual([
      [[ALICE.contracts, '12.5']],
      [[insuranceAccountIdOf(1), '0.75']],
    ]);
    const restored = initialLedgerState();
    for (const snapshot of snapshots) restorePartition(restored, snapshot);
    expect(ledgerStateHash(restored)).toBe(hash);
    expect(uncovered(restored.contracts)).toEqual(uncovered(live.contracts));

    // The hash sees it: a partition that lost its share of it is not the same state.
    forgetPartition(live, scopeOf(1));
    expect(uncovered(live.contracts)).toEqual([[ALICE.contracts, '12.5']]);
    const { uncovered: _dropped, ...older } = snapshots[1].contracts;
    restorePartition(live, { ...snapshots[1], contracts: older });
    expect(ledgerStateHash(live)).not.toBe(hash);
    forgetPartition(live, scopeOf(1));
    restorePartition(live, snapshots[1]);
    expect(ledgerStateHash(live)).toBe(hash);
  });
});
