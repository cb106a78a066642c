import { feeAccountIdOf } from '../domain/ledger-ids';
import { evolve, initialLedgerState, type LedgerState } from '../domain/ledger-state';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { PartitionDriver, SWAP } from './partition-driver.fixtures';
import { allShares, captureShares, changedShares, PARTITION_SHARE } from './partition-shares';
import { type PartitionScope, restorePartition } from './partition-state';

const scope: PartitionScope = { partition: 0, partitionOf: () => 0, feeAccountId: feeAccountIdOf(0) };

/** 40 users with a LONG or a SHORT each, a funding paid to them all, then a crash of the mark that liquidates the LONGs against the SHORTs. */
function fundedAndLiquidated(): PartitionDriver {
  const p = new PartitionDriver();
  p.givenUsers(10_000, 40).forEach((accountId, i) =>
    p.givenPosition(String(10_000 + i), accountId, i % 2 === 0 ? 'LONG' : 'SHORT', String(1 + (i % 3)), '50000', '5'),
  );
  p.send('SettleFunding', { symbol: SWAP, fundingTime: 8 * 3_600_000, rate: '0.0001', markPrice: '50000' }, 'fix/0');
  p.drain();
  p.send('MarkContractPrice', { symbol: SWAP, markPrice: '40000', indexPrice: '40000', marketsVersion: 1 }, 'mark/0');
  p.drain();
  return p;
}

const sharesText = (state: LedgerState): Map<string, string> =>
  new Map(
    [...captureShares(state, scope, allShares(state, scope), new Map())].map(([userId, s]) => [
      userId,
      JSON.stringify(s),
    ]),
  );

describe("a partition's shares, as incremental snapshots write them", () => {
  it('restore, together and through JSON, the whole partition, contracts included', () => {
    const live = fundedAndLiquidated().state;
    const restored = initialLedgerState();
    for (const text of sharesText(live).values()) restorePartition(restored, JSON.parse(text));
    expect(ledgerStateHash(restored)).toBe(ledgerStateHash(live));
  });

  it("name every share an event changes: its user's, and those of the accounts it moves (funding payments, deleveraged counterparties)", () => {
    const { journal } = fundedAndLiquidated();
    expect(journal.map((e) => e.type)).toEqual(
      expect.arrayContaining(['FundingSettled', 'PositionDeleveraged', 'PositionLiquidated']),
    );
    const state = initialLedgerState();
    let before = sharesText(state);
    for (const event of journal) {
      evolve(state, event);
      const after = sharesText(state);
      const named = new Set([PARTITION_SHARE]);
      changedShares(event, state, named);
      const changed = [...after].filter(([userId, text]) => before.get(userId) !== text).map(([userId]) => userId);
      expect({ event: event.type, unnamed: changed.filter((userId) => !named.has(userId)) }).toEqual({
        event: event.type,
        unnamed: [],
      });
      before = after;
    }
  });
});
