import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type AccountRecord, type LedgerJournalEvent, parseLedgerEvent, Topics } from '@exchange/contracts';
import { defaultFlags } from '@exchange/ledger';
import { type AccountStart, StreamStartReader } from '@exchange/ledger-query';
import { openDataSource, schemaName, schemaQueries } from '@exchange/platform';
import {
  type AccountStream,
  AccountStreams,
  type BalanceChange,
  type FrameSink,
  type StreamedAccount,
  type StreamedContracts,
  streamedAccountLine,
  streamedBalance,
  streamedPlaces,
  streamStateHash,
  type StreamFrame,
} from '@exchange/user-stream';
import type { DataSource } from 'typeorm';
import { Progress } from '../progress';
import type { Check, ReplayContext, ReplayOptions, ReplayResult, ReplayTarget } from '../replay-target';
import { withDatabase } from '../schema-target';

const journal = Topics.ledgerEvents.name;

/**
 * A user-stream replica's state is the fold of ledger.events into one stream per account, from
 * where the ledger's tables stood when it began streaming the account. The rebuild begins every
 * account where the journal opens it and folds every partition from offset 0 through the
 * service's own AccountStreams, with a client on each account that keeps the balances the frames
 * carry (the service keeps no balances per account: a client following the stream holds them).
 * `state hash` then compares, per account of a user, the flags, the user's sequence and the
 * last streamed balance of each asset with what a replica starting now would begin from (the
 * stream-start reader over the ledger's live tables) and what the ledger's balances tables hold
 * (spot, and a contracts account's USDT) at the streamed precision. Not compared: the last E (a replica's starts from when it began
 * streaming the account) and listenKeys (in Redis or memory, never journaled; the store has no
 * cheap count, so none is printed). The ledger's fee accounts belong to no user and have no
 * stream. The ledger writes its tables and its outbox in one transaction and publishes the outbox
 * afterwards: until the outbox drains the tables are ahead of the journal, which the `ledger
 * outbox` check says, so the hash is exact on a quiet exchange only. The streams are written as
 * JSON to a folder; the service rebuilds them on start, so there is nothing to switch.
 */
export const userStreamReplay: ReplayTarget = {
  service: 'user-stream',
  journal: `${journal} → account stream states as JSON in a folder (default ./data/replay/user-stream-<time>)`,
  rebuild: async (ctx, options) => withDatabase(ctx, (database) => rebuild(ctx, options, database.url)),
};

/** A client that followed an account's stream from its start: the last B entry of each asset. */
class FollowingClient implements FrameSink {
  readonly balances = new Map<string, BalanceChange>();

  deliver(data: Buffer): void {
    const frame = JSON.parse(data.toString()) as StreamFrame;
    if (frame.e === 'outboundAccountInfo') for (const b of frame.B) this.balances.set(b.a, b);
  }
}

interface RebuiltStream {
  stream: AccountStream;
  client: FollowingClient;
}

interface Fold {
  streams: Map<string, RebuiltStream>;
  frames: Map<string, number>;
  events: number;
  seconds: number;
  ends: number[];
}

async function rebuild(ctx: ReplayContext, options: ReplayOptions, url: string): Promise<ReplayResult> {
  const fold = await foldJournal(ctx);
  const rebuilt = [...fold.streams.values()].map(streamedAccountOf);
  const live = await readLive(ctx, url);
  const checks = compare(rebuilt, live.accounts, fold.frames, live.outbox);
  const location = resolve(options.into ?? join('data', 'replay', `user-stream-${Date.now()}`));
  writeStreams(location, fold, streamStateHash(rebuilt));
  return { events: fold.events, seconds: fold.seconds, checks, location, position: { [journal]: fold.ends } };
}

/** Every partition of ledger.events up to its end at the start, each event once, through the service's AccountStreams. */
async function foldJournal(ctx: ReplayContext): Promise<Fold> {
  const ends = await ctx.log.endOffsets(journal);
  const opened = new Map<string, AccountStart>();
  const frames = new Map<string, number>();
  const accountStreams = new AccountStreams(
    { start: async (accountId) => opened.get(accountId) },
    ctx.markets,
    (frame) => frames.set(frame.e, (frames.get(frame.e) ?? 0) + 1),
  );
  const streams = new Map<string, RebuiltStream>();
  const progress = new Progress(
    'user-stream',
    ends.reduce((a, b) => a + b, 0),
    ctx.progress,
  );
  const seen = new Set<string>();
  for (let p = 0; p < ends.length; p++) {
    await ctx.log.read(
      journal,
      p,
      0,
      async (records) => {
        for (const record of records) {
          const event = parseLedgerEvent(record.value); // as the service's feed reads it: anything else is skipped
          // Earlier versions' outbox relay published at least once: a repeated event id is the same event.
          if (!event || seen.has(event.id)) continue;
          seen.add(event.id);
          const accounts = accountsOpenedBy(event);
          for (const account of accounts) {
            // As a replica starting right after this event would: the ledger's new-account flags, the user's sequence including it.
            const contracts = contractsCarriedBy(account, accounts);
            opened.set(account.accountId, {
              userId: account.userId,
              flags: defaultFlags,
              seq: event.payload.seq,
              ...(contracts ? { contracts } : {}),
            });
            const client = new FollowingClient();
            const stream = accountStreams.join((await accountStreams.prepare(account.accountId))!, client);
            streams.set(account.accountId, { stream, client });
          }
          accountStreams.apply(event);
        }
        progress.advance(records.length);
      },
      ends[p],
    );
  }
  return { streams, frames, ends, ...progress.finish() };
}

function accountsOpenedBy(event: LedgerJournalEvent): readonly AccountRecord[] {
  if (event.type === 'UserCreated') return event.payload.accounts;
  if (event.type === 'SubAccountCreated') return [event.payload.account];
  return [];
}

/** As the stream-start reader finds it: a contracts account carries itself, the main token account carries the main contracts account opened with it. */
function contractsCarriedBy(
  account: AccountRecord,
  openedWith: readonly AccountRecord[],
): StreamedContracts | undefined {
  const carried =
    account.accountType === 3
      ? account
      : account.accountType === 1 && account.accountIndex === 0
        ? openedWith.find((a) => a.accountType === 3 && a.accountIndex === 0)
        : undefined;
  return carried && { accountId: carried.accountId, flags: defaultFlags };
}

function streamedAccountOf({ stream, client }: RebuiltStream): StreamedAccount {
  const { accountId, flags, lastSeq } = stream.state;
  return { accountId, userId: stream.userId, flags, seq: lastSeq, balances: [...client.balances.values()] };
}

/** Where a replica starting now would begin each account, with the ledger's balances as a stream renders them; and the ledger's unpublished events. */
async function readLive(ctx: ReplayContext, url: string): Promise<{ accounts: StreamedAccount[]; outbox: number }> {
  const schema = schemaName(ctx.config, 'ledger');
  const ds = await openDataSource({ url, schema, entities: [], migrations: [], readOnly: true });
  try {
    const starts = await new StreamStartReader(schemaQueries(ds, schema)).everyStart();
    const balances = await balancesByAccount(ctx, ds, schema);
    const [{ n: outbox }] = (await ds.query(`SELECT count(*)::int AS n FROM "${schema}".outbox`)) as [{ n: number }];
    const accounts = [...starts].map(([accountId, start]) => ({
      accountId,
      userId: start.userId,
      flags: start.flags,
      seq: start.seq,
      balances: balances.get(accountId) ?? [],
    }));
    return { accounts, outbox };
  } finally {
    await ds.destroy();
  }
}

/**
 * The balances each account's own stream shows: the spot balances, and a contracts account's USDT
 * as its outboundAccountInfo renders it (free, and locked plus position margin).
 */
async function balancesByAccount(
  ctx: ReplayContext,
  ds: DataSource,
  schema: string,
): Promise<Map<string, BalanceChange[]>> {
  const rows = (await ds.query(
    `SELECT account_id::text, asset, free::text, locked::text FROM "${schema}".balances
     UNION ALL SELECT account_id::text, 'USDT', free::text, (locked + position_margin)::text FROM "${schema}".contract_balances`,
  )) as { account_id: string; asset: string; free: string; locked: string }[];
  const byAccount = new Map<string, BalanceChange[]>();
  for (const row of rows) {
    let balances = byAccount.get(row.account_id);
    if (!balances) byAccount.set(row.account_id, (balances = []));
    balances.push(streamedBalance(row, streamedPlaces(ctx.markets, row.asset)));
  }
  return byAccount;
}

/** Accounts named in a differing-accounts detail: enough to start looking. */
const LISTED = 5;

function compare(
  rebuilt: StreamedAccount[],
  live: StreamedAccount[],
  frames: Map<string, number>,
  outbox: number,
): Check[] {
  const [rebuiltHash, liveHash] = [streamStateHash(rebuilt), streamStateHash(live)];
  const differing = differingAccounts(rebuilt, live);
  const sent = [...frames].map(([e, n]) => `${n} ${e}`).join(', ') || 'none';
  return [
    { name: 'state hash', ok: rebuiltHash === liveHash, detail: `rebuilt ${rebuiltHash} live ${liveHash}` },
    { name: 'accounts', ok: rebuilt.length === live.length, detail: `rebuilt ${rebuilt.length} live ${live.length}` },
    {
      name: 'differing accounts',
      ok: differing.length === 0,
      detail:
        differing.length === 0
          ? 'none'
          : `${differing.length}: ${differing.slice(0, LISTED).join(', ')}${differing.length > LISTED ? ', …' : ''}`,
    },
    { name: 'frames', ok: true, detail: `${sent} rendered by the fold` },
    {
      name: 'ledger outbox',
      ok: true,
      detail:
        outbox === 0
          ? 'empty: the tables hold nothing the journal lacks'
          : `${outbox} events not yet on ${journal}: their users' streams differ until the relay publishes them`,
    },
  ];
}

/** Each account whose stream differs, with the side(s) it is on. */
function differingAccounts(rebuilt: StreamedAccount[], live: StreamedAccount[]): string[] {
  const lines = (accounts: StreamedAccount[]) => new Map(accounts.map((a) => [a.accountId, streamedAccountLine(a)]));
  const [r, l] = [lines(rebuilt), lines(live)];
  const ids = [...new Set([...r.keys(), ...l.keys()])].sort();
  return ids
    .filter((id) => r.get(id) !== l.get(id))
    .map((id) => (!l.has(id) ? `${id} (rebuilt only)` : !r.has(id) ? `${id} (live only)` : id));
}

function writeStreams(dir: string, fold: Fold, stateHash: string): void {
  mkdirSync(dir, { recursive: true });
  const accounts = [...fold.streams.values()]
    .map(({ stream, client }) => ({ ...stream.state, userId: stream.userId, balances: [...client.balances.values()] }))
    .sort((x, y) => (x.accountId < y.accountId ? -1 : x.accountId > y.accountId ? 1 : 0));
  const state = { journal, offsets: fold.ends, stateHash, frames: Object.fromEntries(fold.frames), accounts };
  writeFileSync(join(dir, 'account-streams.json'), JSON.stringify(state) + '\n');
}
