// Rebuild rate of the ledger: events/s folded from ledger.events into a fresh PostgreSQL schema by
// the replay CLI's own code (tools/replay), for BENCH_EVENTS (1,000,000) generated ledger events.
// Baseline in the same run: reading and folding the same journal in memory (evolve), without
// PostgreSQL: the ceiling any rebuild has. Needs DATABASE_URL. Run pinned, PostgreSQL elsewhere:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test taskset -c 1 npm run bench:replay
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allTopics, type LedgerAccountCommand, type LedgerJournalEvent, Markets, Topics } from '@exchange/contracts';
import { decide, evolve, feeAccountIdOf, flowIdOf, initialLedgerState, ledgerMigrations } from '@exchange/ledger';
import { EmbeddedEventLog, type EventLog, partitionForKey } from '@exchange/messaging';
import { createLogger, loadConfig, openDataSource } from '@exchange/platform';
import { Client } from 'pg';
import { foldJournalInto } from '../../tools/replay/ledger/ledger-rebuild';
import type { ReplayContext } from '../../tools/replay/replay-target';
import { formatNumber, formatSpread, spread } from '../support/stats';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const EVENTS_PER_USER = 100;

/** Users with a deposit and transfers between their own accounts, decided by the ledger's domain. */
async function generateJournal(log: EventLog, markets: Markets): Promise<number> {
  const state = initialLedgerState();
  const partitions = Topics.ledgerCommands.partitions;
  let written = 0;
  let offset = 0;
  for (let u = 0; written < EVENTS; u++) {
    const userId = String(1_000_000 + u);
    const accounts = [`${userId}1`, `${userId}2`, `${userId}3`] as [string, string, string];
    const commands: LedgerAccountCommand[] = [
      { type: 'CreateUser', v: 1, id: `c${u}`, ts: 1, payload: { userId, name: `user ${u}`, accountIds: accounts } },
      {
        type: 'CreditDeposit',
        v: 1,
        id: `d${u}`,
        ts: 2,
        payload: { userId, accountId: accounts[0], depositId: String(u + 1), asset: 'USDT', amount: '1000000' },
      },
    ];
    for (let t = 0; t < EVENTS_PER_USER - 2; t++) {
      const [from, to] = t % 2 === 0 ? [accounts[0], accounts[2]] : [accounts[2], accounts[0]];
      commands.push({
        type: 'TransferFunds',
        v: 1,
        id: `t${u}.${t}`,
        ts: 3 + t,
        payload: {
          userId,
          transferId: `${u}${t}`,
          fromAccountId: from,
          toAccountId: to,
          asset: 'USDT',
          amount: '1.25',
        },
      });
    }
    const p = partitionForKey(userId, partitions);
    const events: LedgerJournalEvent[] = [];
    for (const command of commands) {
      const ctx = {
        now: 0,
        flowId: (k: number) => flowIdOf(offset, p, k),
        asset: (a: string) => markets.asset(a),
        symbol: (s: string) => markets.symbol(s),
        feeAccountId: feeAccountIdOf(p),
      };
      offset += 1;
      for (const event of decide(command, state, ctx)) {
        evolve(state, event);
        events.push(event);
      }
    }
    await log.publish(events.map((e) => ({ topic: Topics.ledgerEvents.name, key: userId, value: JSON.stringify(e) })));
    written += events.length;
  }
  return written;
}

/** The ceiling: the same journal read and folded in memory. */
async function foldInMemory(log: EventLog): Promise<number> {
  const started = process.hrtime.bigint();
  const state = initialLedgerState();
  let n = 0;
  for (let p = 0; p < (await log.partitionCount(Topics.ledgerEvents.name)); p++) {
    await log.read(Topics.ledgerEvents.name, p, 0, async (records) => {
      for (const r of records) evolve(state, JSON.parse(r.value) as LedgerJournalEvent);
      n += records.length;
    });
  }
  return n / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function rebuildOnce(ctx: ReplayContext, url: string, schema: string): Promise<number> {
  const target = await openDataSource({ url, schema, entities: [], migrations: ledgerMigrations });
  try {
    const { events, seconds } = await foldJournalInto(ctx, target, schema);
    return events / seconds;
  } finally {
    await target.query(`DROP SCHEMA "${schema}" CASCADE`);
    await target.destroy();
  }
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('set DATABASE_URL (PostgreSQL the rebuild writes to)');
  const dir = mkdtempSync(join(tmpdir(), 'replay-bench-'));
  const log = await EmbeddedEventLog.open({ dir, fsync: 'never' });
  const markets = Markets.fromFile('config/markets.json');
  try {
    await log.createTopics(allTopics);
    const generated = await generateJournal(log, markets);
    const logger = createLogger('replay-bench', 'warn');
    const ctx: ReplayContext = {
      config: loadConfig({ DATABASE_URL: url }),
      log,
      markets,
      logger,
      say: () => undefined,
      progress: process.stderr,
    };
    const pg = new Client({ connectionString: url });
    await pg.connect();
    const server = (await pg.query('SHOW server_version')).rows[0].server_version as string;
    const durability = (await pg.query('SHOW synchronous_commit')).rows[0].synchronous_commit as string;
    await pg.end();
    console.log(
      `ledger rebuild: ${formatNumber(generated)} events of ${EVENTS / EVENTS_PER_USER} users (UserCreated, DepositCredited, FundsTransferred) on the embedded log`,
    );
    console.log(
      `node ${process.version}, PostgreSQL ${server} (synchronous_commit=${durability}), one transaction per 10,000 events, ${RUNS} runs after a warm-up`,
    );

    await foldInMemory(log);
    const ceiling: number[] = [];
    const rebuild: number[] = [];
    await rebuildOnce(ctx, url, `bench_replay_warmup_${randomBytes(3).toString('hex')}`);
    for (let run = 0; run < RUNS; run++) {
      ceiling.push(await foldInMemory(log));
      rebuild.push(await rebuildOnce(ctx, url, `bench_replay_${randomBytes(3).toString('hex')}`));
    }
    const [c, r] = [spread(ceiling), spread(rebuild)];
    console.log(`in-memory fold (ceiling)      ${formatSpread(c)} events/s  (median, min–max)`);
    console.log(`rebuild into PostgreSQL       ${formatSpread(r)} events/s`);
    console.log(`ratio of medians              ${formatNumber(r.median / c.median, 3)}`);
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
