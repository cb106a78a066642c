import { parseWalletEvent, Topics, type WalletEvent } from '@exchange/contracts';
import {
  evolve,
  initialWalletState,
  loadWalletState,
  walletMigrations,
  walletStateHash,
  writeProjection,
} from '@exchange/wallet';
import type { DataSource } from 'typeorm';
import { Progress } from '../progress';
import type { Check, ReplayContext, ReplayTarget } from '../replay-target';
import { rebuildSchema, rowCountChecks, switchSchema } from '../schema-target';

const journal = Topics.walletEvents.name;

/**
 * The wallet's tables (withdrawals, deposits, address books) are the fold of wallet.events. The
 * rebuild writes that fold into a fresh schema with the wallet's own projection code and compares
 * every record with the live tables. Checkpoints and processed command ids are the input side,
 * which the journal does not carry: --switch copies them over, as for the ledger.
 */
export const walletReplay: ReplayTarget = {
  service: 'wallet',
  journal: `${journal} → a fresh PostgreSQL schema (default <prefix>wallet_rebuilt)`,
  rebuild: async (ctx, options) =>
    rebuildSchema(ctx, options, {
      service: 'wallet',
      migrations: walletMigrations,
      fold: async (rebuilt, target) => {
        const { events, seconds, ends, foldHash } = await foldJournalInto(ctx, rebuilt, target);
        const tablesHash = walletStateHash(await loadWalletState(rebuilt, target));
        const projection: Check = {
          name: 'projection',
          ok: tablesHash === foldHash,
          detail: `rebuilt tables ${tablesHash} in-memory fold ${foldHash}`,
        };
        return { events, seconds, position: { [journal]: ends }, checks: [projection] };
      },
      compare,
    }),
  switchTo: async (ctx, result) => switchSchema(ctx, result, 'wallet', journal),
};

/** Events written per transaction. */
const WRITE_BATCH = 5_000;

/**
 * Writes every event of wallet.events (up to its end at the start), in partition order and
 * deduplicated by id, into the migrated empty schema; folds them in memory alongside, so the
 * projection can be checked against the domain's own fold.
 */
async function foldJournalInto(
  ctx: ReplayContext,
  rebuilt: DataSource,
  target: string,
): Promise<{ events: number; seconds: number; ends: number[]; foldHash: string }> {
  const ends = await ctx.log.endOffsets(journal);
  const progress = new Progress(
    'wallet',
    ends.reduce((a, b) => a + b, 0),
    ctx.progress,
  );
  const state = initialWalletState();
  const seen = new Set<string>();
  let pending: WalletEvent[] = [];
  const flush = async (): Promise<void> => {
    const events = pending;
    pending = [];
    if (events.length > 0)
      await rebuilt.transaction((manager) => writeProjection(manager.queryRunner!, target, events));
  };
  for (let p = 0; p < ends.length; p++) {
    await ctx.log.read(
      journal,
      p,
      0,
      async (records) => {
        for (const record of records) {
          const event = parseWalletEvent(record.value);
          // A rebuild that skipped a record would compare as a damaged copy: stop and name it instead.
          if (!event) throw new Error(`${journal} ${p}@${record.offset} is not a wallet event`);
          // The outbox relay publishes at least once: a repeated event id is the same event.
          if (seen.has(event.id)) continue;
          seen.add(event.id);
          evolve(state, event);
          pending.push(event);
        }
        if (pending.length >= WRITE_BATCH) await flush();
        progress.advance(records.length);
      },
      ends[p],
    );
    await flush();
  }
  return { ...progress.finish(), ends, foldHash: walletStateHash(state) };
}

/** The state hash of both schemas' records and their row counts. */
async function compare(rebuilt: DataSource, target: string, live: DataSource, liveSchema: string): Promise<Check[]> {
  const [rebuiltHash, liveHash] = [
    walletStateHash(await loadWalletState(rebuilt, target)),
    walletStateHash(await loadWalletState(live, liveSchema)),
  ];
  return [
    { name: 'state hash', ok: rebuiltHash === liveHash, detail: `rebuilt ${rebuiltHash} live ${liveHash}` },
    ...(await rowCountChecks(['withdrawals', 'deposits', 'withdrawal_addresses'], rebuilt, target, live, liveSchema)),
  ];
}
