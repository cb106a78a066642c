/**
 * One measured run of the user stream's rendering: AccountStreams (the service's own) with
 * `accounts` streamed accounts, each with one counting socket, applies `events` ledger events, the
 * accounts in turn, after `warm` untimed ones. `spot`: TradeSettled (executionReport and
 * outboundAccountInfo, as bench:user-stream sends). `contract`: ContractOrderFilled partial fills
 * of one open order per account, placed untimed (contractExecutionReport,
 * outboundContractPositionInfo and outboundContractAccountInfo, the order found in the replica's
 * memory). Prints {microsPerEvent, frames, bytes} (timed events only) as its last line.
 */
import { performance } from 'node:perf_hooks';
import { type LedgerJournalEvent, Markets } from '@exchange/contracts';
import { AccountStreams } from '@exchange/user-stream';
import { type BenchAccount, tradeSettled } from './bench-frames';

const [kind, accountsArg, warmArg, eventsArg] = process.argv.slice(2);
const [accountCount, warm, events] = [Number(accountsArg), Number(warmArg), Number(eventsArg)];
const markets = Markets.fromFile('config/markets.json');
const accounts: BenchAccount[] = Array.from({ length: accountCount }, (_, i) => ({
  userId: String(10_000 + i),
  accountId: String(100_000 + i),
  listenKey: '',
}));
const flags = { canTrade: true, canWithdraw: true, canDeposit: true };
/** The user's main contracts account: the main account's id plus 1,000,000. */
const contractsOf = (account: BenchAccount) => String(Number(account.accountId) + 1_000_000);

let frames = 0;
let bytes = 0;
const sink = { deliver: (data: Buffer) => ((frames += 1), (bytes += data.length)) };

function contractPlaced(account: BenchAccount, seq: number): LedgerJournalEvent {
  const accountId = contractsOf(account);
  const order = {
    orderId: `o${account.accountId}`,
    clientOrderId: `c${account.accountId}`,
    accountId,
    userId: account.userId,
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY_OPEN' as const,
    price: '60000',
    quantity: '1000000',
    leverage: '10',
    executedQty: '0',
    marginLocked: '6072000',
    marginLeft: '6072000',
    status: 'NEW' as const,
    time: 1,
    marketsVersion: 1,
    orderType: 'LIMIT' as const,
  };
  const position = {
    accountId,
    symbol: 'BTC-SWAP-USDT',
    side: 'LONG' as const,
    size: '0',
    available: '0',
    opening: '1000000',
    entryValue: '0',
    avgPrice: '0',
    margin: '0',
    realizedPnl: '0',
    leverage: '10',
    flp: '0',
  };
  const payload = {
    userId: account.userId,
    seq,
    commandId: `p${seq}`,
    order,
    balance: { accountId, free: '1000', locked: '6072000', positionMargin: '0' },
    position,
  };
  return { type: 'ContractOrderPlaced', v: 1, id: `p${seq}:0`, ts: 1, payload };
}

function contractFilled(account: BenchAccount, seq: number, n: number): LedgerJournalEvent {
  const accountId = contractsOf(account);
  const size = String(n + 1);
  const position = {
    accountId,
    symbol: 'BTC-SWAP-USDT',
    side: 'LONG' as const,
    size,
    available: size,
    opening: '999000',
    entryValue: '60000',
    avgPrice: '60000',
    margin: '6000',
    realizedPnl: '0',
    leverage: '10',
    flp: '54291.3',
  };
  const balance = { accountId, free: '1000.024', locked: '6065928', positionMargin: '6000' };
  const payload = {
    userId: account.userId,
    seq,
    commandId: `f${seq}`,
    tradeId: String(n + 1),
    accountId,
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY_OPEN' as const,
    price: '60000',
    quantity: '1',
    isMaker: true,
    fee: '0.012',
    feeToken: 'USDT',
    pnl: '0',
    uncovered: '0',
    order: {
      orderId: `o${account.accountId}`,
      executedQty: size,
      marginLeft: '6065928',
      status: 'PARTIALLY_FILLED' as const,
    },
    position,
    balance,
    feeAccount: { accountId: '1', free: '1', locked: '0', positionMargin: '0' },
    flows: [],
  };
  return { type: 'ContractOrderFilled', v: 1, id: `f${seq}:0`, ts: n, payload };
}

async function main(): Promise<void> {
  const start = async (accountId: string) => {
    const account = accounts[Number(accountId) - 100_000]!;
    return { userId: account.userId, flags, seq: 0, contracts: { accountId: contractsOf(account), flags } };
  };
  const streams = new AccountStreams({ start }, markets);
  for (const account of accounts) streams.join((await streams.prepare(account.accountId))!, sink);
  const seqs = new Map(accounts.map((a) => [a.userId, 0]));
  const next = (account: BenchAccount) => seqs.set(account.userId, seqs.get(account.userId)! + 1).get(account.userId)!;
  if (kind === 'contract') for (const account of accounts) streams.apply(contractPlaced(account, next(account)));
  const eventOf = (n: number): LedgerJournalEvent => {
    const account = accounts[n % accounts.length]!;
    return kind === 'contract' ? contractFilled(account, next(account), n) : tradeSettled(account, next(account), n, n);
  };
  // Built before the clock starts, as the consumed batch is parsed before it is applied.
  const built = Array.from({ length: warm + events }, (_, n) => eventOf(n));
  for (let n = 0; n < warm; n++) streams.apply(built[n]!);
  [frames, bytes] = [0, 0];
  const began = performance.now();
  for (let n = warm; n < warm + events; n++) streams.apply(built[n]!);
  const micros = (performance.now() - began) * 1000;
  console.log(JSON.stringify({ microsPerEvent: micros / events, frames, bytes }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
