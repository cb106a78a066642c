import type { FundingPayment, LedgerJournalEvent } from '@exchange/contracts';
import { FUNDING_PAYMENTS_PER_COMMAND, insuranceAccountIdOf } from '../domain/ledger-ids';
import { Money } from '../domain/ledger-money';
import { ledgerStateHash } from '../domain/ledger-state-hash';
import { PartitionDriver, replayed, SWAP } from './partition-driver.fixtures';

const HOUR8 = 8 * 3_600_000;
const POSITIONS = 1_300;

/** 1,300 positions in one partition: LONG for even users, SHORT for odd, sizes 1–7 contracts, margin 1/10 of 50000. */
function crowded(): { p: PartitionDriver; sizes: Map<string, { side: 'LONG' | 'SHORT'; size: number }> } {
  const p = new PartitionDriver();
  const sizes = new Map<string, { side: 'LONG' | 'SHORT'; size: number }>();
  p.givenUsers(10_000, POSITIONS).forEach((accountId, i) => {
    const side = i % 2 === 0 ? 'LONG' : 'SHORT';
    const size = 1 + (i % 7);
    p.givenPosition(String(10_000 + i), accountId, side, String(size), '50000', String(size * 5));
    sizes.set(accountId, { side, size });
  });
  return { p, sizes };
}

function fundingEvents(events: readonly LedgerJournalEvent[]) {
  return events.flatMap((e) => (e.type === 'FundingSettled' ? [e.payload] : []));
}

describe('Ledger partition: a funding larger than one command', () => {
  const [rate, mark] = ['0.00012345', '50000.3'];

  it('pays every one of 1,300 positions once, to the unit, over three commands, with the sum over accounts unchanged', () => {
    const { p, sizes } = crowded();
    const before = p.contractsCash();
    p.send('SettleFunding', { symbol: SWAP, fundingTime: HOUR8, rate, markPrice: mark }, 'fix-1/0');
    expect(p.drain()).toBe(2);

    const parts = p.decided.slice(-3);
    expect(parts.map((d) => [d.command.type, d.command.id])).toEqual([
      ['SettleFunding', 'fix-1/0'],
      ['ContinueFunding', 'fix-1/0/part:2'],
      ['ContinueFunding', 'fix-1/0/part:3'],
    ]);
    const settled = parts.flatMap((d) => fundingEvents(d.events));
    expect(settled.map((s) => s.payments.length)).toEqual([
      FUNDING_PAYMENTS_PER_COMMAND,
      FUNDING_PAYMENTS_PER_COMMAND,
      POSITIONS - 2 * FUNDING_PAYMENTS_PER_COMMAND,
    ]);
    const paid = new Map<string, FundingPayment>();
    for (const payment of settled.flatMap((s) => s.payments)) {
      expect(paid.has(payment.accountId)).toBe(false);
      paid.set(payment.accountId, payment);
    }
    expect(paid.size).toBe(POSITIONS);
    // A positive rate: LONGs pay size × 0.001 × mark × rate rounded up, SHORTs get it rounded down.
    for (const [accountId, { side, size }] of sizes) {
      const exact = new Money(size).times('0.001').times(mark).times(rate);
      const expected =
        side === 'LONG'
          ? exact.toDecimalPlaces(8, Money.ROUND_UP).negated()
          : exact.toDecimalPlaces(8, Money.ROUND_DOWN);
      expect([accountId, paid.get(accountId)!.amount]).toEqual([accountId, expected.toFixed()]);
      expect(p.state.contracts.positions.get(`${accountId}|${SWAP}|${side}`)!.margin.toFixed()).toBe(
        new Money(size * 5).plus(expected).toFixed(),
      );
    }
    // Each part is exact on its own: what moved sums to zero over the accounts, the fund and the clearing account.
    expect(p.contractsCash().toFixed()).toBe(before.toFixed());
    for (const s of settled) expect(new Money(s.remainder).gte(0)).toBe(true);
    expect(p.state.contracts.fundingCursors.size).toBe(0);
  });

  it('decides nothing for a repeated part or a repeated settlement, and a replay of the journal hashes the same', () => {
    const { p } = crowded();
    p.send('SettleFunding', { symbol: SWAP, fundingTime: HOUR8, rate, markPrice: mark }, 'fix-1/0');
    const second = p.queue[0]!;
    // A repeat of the first part while the second waits: funding is paid once.
    expect(
      p.send('SettleFunding', { symbol: SWAP, fundingTime: HOUR8, rate, markPrice: mark }, 'fix-1/0-again'),
    ).toEqual([]);
    p.drain();
    const hash = ledgerStateHash(p.state);
    // The second part again after every part was decided (its processed id expired): the cursor has moved on.
    expect(p.decide({ ...second, id: `${second.id}-redelivered` })).toEqual([]);
    expect(ledgerStateHash(p.state)).toBe(hash);
    expect(ledgerStateHash(replayed(p.journal))).toBe(hash);
  });

  it("pays an earlier interval's remaining parts when a later fix is decided before them", () => {
    const { p } = crowded();
    p.send('SettleFunding', { symbol: SWAP, fundingTime: HOUR8, rate, markPrice: mark }, 'fix-1/0');
    // The next fix was already in the partition behind the first: decided before the first's continuation.
    p.send('SettleFunding', { symbol: SWAP, fundingTime: 2 * HOUR8, rate: '-0.0001', markPrice: mark }, 'fix-2/0');
    expect(p.drain()).toBe(4);
    for (const fundingTime of [HOUR8, 2 * HOUR8]) {
      const payments = fundingEvents(p.journal)
        .filter((s) => s.fundingTime === fundingTime)
        .flatMap((s) => s.payments);
      expect([fundingTime, payments.length, new Set(payments.map((x) => x.accountId)).size]).toEqual([
        fundingTime,
        POSITIONS,
        POSITIONS,
      ]);
    }
    expect(p.state.contracts.fundingCursors.size).toBe(0);
    expect(ledgerStateHash(replayed(p.journal))).toBe(ledgerStateHash(p.state));
  });

  it('keeps the cursor in the fold between parts: a replay of the journal to there holds it and hashes the same', () => {
    const { p } = crowded();
    p.send('SettleFunding', { symbol: SWAP, fundingTime: HOUR8, rate, markPrice: mark }, 'fix-1/0');
    const midway = replayed(p.journal);
    expect([...midway.contracts.fundingCursors.values()]).toEqual([
      { symbol: SWAP, fundAccountId: '101', fundingTime: HOUR8, after: expect.any(String), part: 2 },
    ]);
    expect(ledgerStateHash(midway)).toBe(ledgerStateHash(p.state));
  });
});

describe('Ledger partition: a liquidation cascade larger than one command', () => {
  const LONGS = 600;

  it('liquidates every one of 600 crossed positions over three commands, the rest judged again at the kept mark', () => {
    const p = new PartitionDriver();
    const accounts = p.givenUsers(20_000, LONGS);
    // 1 contract at 50000 with 5 USDT of margin (10×): liquidated below about 45,200.
    accounts.forEach((accountId, i) => p.givenPosition(String(20_000 + i), accountId, 'LONG', '1', '50000', '5'));
    const before = p.contractsCash();
    p.send(
      'MarkContractPrice',
      { symbol: SWAP, markPrice: '40000', indexPrice: '40000', marketsVersion: 1 },
      'mark-1/0',
    );
    expect(p.drain()).toBe(2);

    const parts = p.decided.slice(-3);
    expect(parts.map((d) => [d.command.type, d.command.id])).toEqual([
      ['MarkContractPrice', 'mark-1/0'],
      ['ContinueLiquidation', 'mark-1/0/part:2'],
      ['ContinueLiquidation', 'mark-1/0/part:3'],
    ]);
    const liquidated = parts.map((d) => d.events.filter((e) => e.type === 'PositionLiquidated').length);
    expect(liquidated.reduce((a, b) => a + b, 0)).toBe(LONGS);
    expect(Math.max(...liquidated)).toBeLessThan(LONGS);
    for (const accountId of accounts)
      expect(p.state.contracts.positions.get(`${accountId}|${SWAP}|LONG`)!.size.toFixed()).toBe('0');
    const fund = p.state.contracts.positions.get(`${insuranceAccountIdOf(0)}|${SWAP}|LONG`)!;
    expect([fund.size.toFixed(), fund.closing.toFixed()]).toEqual([String(LONGS), String(LONGS)]);
    // Each user lost its margin; the fund holds the positions at their bankruptcy value.
    expect(
      p
        .contractsCash()
        .minus(before)
        .plus(5 * LONGS)
        .toFixed(),
    ).toBe('0');

    const hash = ledgerStateHash(p.state);
    const last = parts[2]!.command;
    expect(p.decide({ ...last, id: `${last.id}-redelivered` })).toEqual([]);
    expect(ledgerStateHash(p.state)).toBe(hash);
    expect(ledgerStateHash(replayed(p.journal))).toBe(hash);
  });
});
