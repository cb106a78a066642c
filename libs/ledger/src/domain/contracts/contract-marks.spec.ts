import { evolveContracts, initialContractsState } from './contract-state';
import { contractsStateHash } from './contract-state-hash';
import { ContractScenario, FUND } from './contract-scenario.fixtures';

// Alice LONG 1000 (1 BTC) at 50000, 20×: margin 2500, then 1000 more added: 3500. Removing 1000
// leaves 2500, which covers the initial margin at 50000 (50000 / 20) but not at 48000 (48000 / 20
// = 2400 plus the unrealised loss of 2000 = 4400).
const [ALICE, BOB] = ['1001', '2001'];
const SYMBOL = 'BTC-SWAP-USDT';

function opened(): ContractScenario {
  const s = new ContractScenario().credit(ALICE, '10000').credit(BOB, '10000');
  s.order(BOB, '21', 'SELL_OPEN', '1000', '50000', '10');
  s.order(ALICE, '11', 'BUY_OPEN', '1000', '50000', '20');
  s.trade({ accountId: BOB, orderId: '21' }, { accountId: ALICE, orderId: '11' }, '1000', '50000', '1');
  s.given('ModifyPositionMargin', {
    accountId: ALICE,
    symbol: SYMBOL,
    side: 'LONG',
    amount: '1000',
    markPrice: '50000',
  });
  return s;
}

const mark = (s: ContractScenario, markPrice: string) =>
  s.apply('MarkContractPrice', { symbol: SYMBOL, markPrice, indexPrice: '50000', marketsVersion: 1 });
/** A removal whose command names `claimed` as the mark, as a gateway reading the last trade price did. */
const remove = (s: ContractScenario, amount: string, claimed: string) =>
  s.when('ModifyPositionMargin', {
    accountId: ALICE,
    symbol: SYMBOL,
    side: 'LONG',
    amount: `-${amount}`,
    markPrice: claimed,
  });

describe('Contracts: the mark price a partition keeps', () => {
  it('keeps each new mark once, per symbol and fund account, and replays to the same state', () => {
    const s = opened();
    expect(mark(s, '49000')).toEqual([
      {
        type: 'ContractMarkPriced',
        payload: {
          symbol: SYMBOL,
          fundAccountId: FUND,
          markPrice: '49000',
          indexPrice: '50000',
          at: expect.any(Number),
        },
      },
    ]);
    // The same mark again keeps nothing new; a move keeps the new one.
    expect(mark(s, '49000.0')).toEqual([]);
    expect(mark(s, '49100').map((e) => e.type)).toEqual(['ContractMarkPriced']);
    expect(s.state.marks.get(`${SYMBOL}|${FUND}`)?.toFixed()).toBe('49100');
    expect(contractsStateHash(s.journal.reduce(evolveContracts, initialContractsState()))).toBe(
      contractsStateHash(s.state),
    );
  });

  it('checks a margin removal at the mark it consumed, whatever mark the command names', () => {
    const s = opened();
    mark(s, '48000');
    // The command claims 50000 (the last trade): at the consumed 48000 the removal is refused, nothing moves.
    const refused = remove(s, '1000', '50000');
    expect(refused).toEqual({ rejection: { code: -1131, msg: expect.stringContaining('4400 at mark price 48000') } });
    expect(s.position(ALICE, 'LONG').margin).toBe('3500');
    // Back at 50000 it is allowed, though the command now claims a mark far below.
    mark(s, '50000');
    expect('events' in remove(s, '1000', '40000')).toBe(true);
    expect(s.position(ALICE, 'LONG').margin).toBe('2500');
    expect(s.balance(ALICE)).toMatchObject({ positionMargin: '2500' });
  });

  it("uses the command's mark only while no price has reached the partition", () => {
    const s = opened();
    expect(remove(s, '1000', '48000')).toMatchObject({ rejection: { code: -1131 } });
    expect('events' in remove(s, '1000', '50000')).toBe(true);
  });
});
