/**
 * One measured run of liquidation detection: builds a contracts state with `positions` LONG
 * positions of BTC-SWAP-USDT whose liquidation prices are spread evenly over 30000–49000 (not
 * timed), then times `changes` mark price changes through the real decider and fold: `crossing`
 * moves the mark down so each change crosses exactly `perChange` positions (liquidated, taken
 * over by the fund, an IOC order offered); `quiet` moves it between two prices above them all.
 * The first `warm` changes, the same kind, are not timed (the JIT's). Prints {microsPerChange,
 * cpuMicrosPerChange, liquidated} (timed changes only) as its last line: wall time, and the
 * process's CPU time (user + system), which time spent descheduled on a shared core does not inflate.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type ContractEvent, Markets } from '@exchange/contracts';
import {
  type ContractContext,
  decideContract,
  evolveContracts,
  initialContractsState,
  setBalance,
  setPosition,
} from '@exchange/ledger';
import { positionAfter } from '../../libs/ledger/src/domain/contracts/contract-decision';
import { Money, ZERO } from '../../libs/ledger/src/domain/ledger-money';

const [positions, mode, warm, changes, perChange] = [
  Number(process.argv[2]),
  process.argv[3] as 'crossing' | 'quiet',
  Number(process.argv[4]),
  Number(process.argv[5]),
  Number(process.argv[6]),
];
const markets = Markets.fromJson(JSON.parse(readFileSync('config/markets.json', 'utf8')));
const SYMBOL = 'BTC-SWAP-USDT';
const config = markets.contract(SYMBOL)!;
const FUND = '9000000002';
let n = 0;
const ctx: ContractContext = {
  now: 1_700_000_000_000,
  contract: (s) => markets.contract(s),
  marginPrecision: 8,
  feeAccountId: '9000000001',
  flowId: () => String(++n),
  orderId: () => String(8_000_000_000 + ++n),
  insurance: { userId: '9000000', accountId: FUND },
};

const [top, bottom] = [new Money(49000), new Money(30000)];
const spacing = top.minus(bottom).div(positions);
const state = initialContractsState();
setBalance(state, { accountId: FUND, free: '1000000000', locked: '0', positionMargin: '0' });
for (let i = 0; i < positions; i++) {
  // 1 BTC entered at 50000; the margin that puts its liquidation price at flp: 50000 − 0.995 × flp.
  const flp = top.minus(spacing.times(i));
  const margin = new Money(50000).minus(flp.times('0.995')).toDecimalPlaces(8, Money.ROUND_DOWN);
  const accountId = String(100_001 + i);
  const p = {
    accountId,
    symbol: SYMBOL,
    side: 'LONG' as const,
    size: new Money(1000),
    closing: ZERO,
    opening: ZERO,
    entryValue: new Money(50000),
    margin,
    realizedPnl: ZERO,
    leverage: new Money(10),
    flp: ZERO,
  };
  setPosition(state, positionAfter(p, config, ctx));
  setBalance(state, { accountId, free: '0', locked: '0', positionMargin: margin.toFixed() });
}

let mark = top.plus(spacing.div(2));
let liquidated = 0;
let started = performance.now();
let cpuStarted = process.cpuUsage();
for (let c = -warm; c < changes; c++) {
  if (c === 0) [started, cpuStarted, liquidated] = [performance.now(), process.cpuUsage(), 0];
  mark = mode === 'crossing' ? mark.minus(spacing.times(perChange)) : mark.plus(c % 2 === 0 ? 100 : -100);
  const command = {
    type: 'MarkContractPrice',
    v: 1,
    id: String(c),
    ts: ctx.now,
    payload: {
      symbol: SYMBOL,
      markPrice: mark.toDecimalPlaces(8).toFixed(),
      indexPrice: mark.toDecimalPlaces(8).toFixed(),
      marketsVersion: 1,
    },
  } as const;
  const decision = decideContract(command, state, ctx);
  if (!('events' in decision)) throw new Error(`refused: ${decision.rejection.msg}`);
  decision.events.forEach((e: ContractEvent) => evolveContracts(state, e));
  liquidated += decision.events.filter((e) => e.type === 'PositionLiquidated').length;
}
const micros = ((performance.now() - started) * 1000) / changes;
const cpu = process.cpuUsage(cpuStarted);
console.log(
  JSON.stringify({ microsPerChange: micros, cpuMicrosPerChange: (cpu.user + cpu.system) / changes, liquidated }),
);
