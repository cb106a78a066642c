import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HeaderNames, Topics } from '@exchange/contracts';
import {
  defaultMatchingEngineSettings,
  EngineSnapshotStore,
  MATCHING_ENGINE_GROUP,
  outputRecords,
  parseOrderCommand,
  SymbolBook,
  type SymbolBookSnapshot,
  SymbolEngines,
} from '@exchange/matching-engine';
import { Progress } from '../progress';
import { sameEvent } from './same-event';
import type { Check, ReplayContext, ReplayOptions, ReplayResult, ReplayTarget } from '../replay-target';

const commands = Topics.orderCommands.name;
const events = Topics.orderEvents.name;

/**
 * The engine's books are a pure fold of order.commands (ARCHITECTURE rule 3). The rebuild folds
 * every partition from offset 0 up to the engine group's committed offset with the engine's own
 * code, and checks it two ways: the events it decides must equal order.events byte for byte,
 * and at the offset of the engine's latest snapshot its books must hash as the snapshot does.
 * The rebuilt books are written as JSON to a folder. The engine keeps its books in memory and
 * rebuilds them itself on start, so there is nothing to switch.
 */
export const matchingEngineReplay: ReplayTarget = {
  service: 'matching-engine',
  journal: `${commands} → books as JSON in a folder (default ./data/replay/matching-engine-<time>)`,
  rebuild,
};

async function rebuild(ctx: ReplayContext, options: ReplayOptions): Promise<ReplayResult> {
  const partitions = await ctx.log.partitionCount(commands);
  const committed = await ctx.log.committedOffsets(MATCHING_ENGINE_GROUP, commands);
  const targets = Array.from({ length: partitions }, (_, p) => committed[p] ?? 0);
  const engines = new SymbolEngines(ctx.markets, partitions, defaultMatchingEngineSettings.recentCommandIds);
  const snapshotStore = new EngineSnapshotStore(ctx.log, ctx.markets, ctx.logger);
  const progress = new Progress(
    'matching-engine',
    targets.reduce((a, b) => a + b, 0),
    ctx.progress,
  );
  const checks: Check[] = [];
  for (let p = 0; p < partitions; p++) {
    const snapshots = await snapshotStore.latest(engines.symbolsOf(p), p, targets[p]!);
    const decided: { id: string; value: string }[] = [];
    // A snapshot at offset o holds the books after every command below o: compared once the fold
    // stands there, which on Kafka may be a transaction marker's offset, between two commands.
    let folded = 0;
    const compareSnapshotsUpTo = (offset: number): void => {
      for (const snapshot of snapshots.values())
        if (snapshot.payload.offset >= folded && snapshot.payload.offset <= offset)
          checks.push(snapshotCheck(ctx, engines, snapshot));
    };
    await ctx.log.read(
      commands,
      p,
      0,
      async (records) => {
        for (const record of records) {
          compareSnapshotsUpTo(record.offset);
          folded = record.offset + 1;
          const parsed = parseOrderCommand(record, (symbol) => engines.partitionOf(symbol));
          if (!parsed.ok) continue;
          const out = engines.apply(parsed.command);
          if (out)
            for (const r of outputRecords(out, undefined))
              if (r.topic === events) decided.push({ id: r.headers![HeaderNames.messageId]!, value: r.value });
        }
        progress.advance(records.length);
      },
      targets[p],
    );
    compareSnapshotsUpTo(targets[p]!);
    checks.push(await eventsCheck(ctx, p, decided));
  }
  if (!checks.some((c) => c.name.startsWith('snapshot')))
    checks.push({
      name: 'snapshot',
      ok: true,
      detail: 'none written yet to compare with (the engine writes one every 1000 commands and at a graceful stop)',
    });
  const { events: count, seconds } = progress.finish();
  const location = resolve(options.into ?? join('data', 'replay', `matching-engine-${Date.now()}`));
  writeBooks(location, engines, targets);
  return { events: count, seconds, checks, location, position: { [commands]: targets } };
}

function snapshotCheck(ctx: ReplayContext, engines: SymbolEngines, snapshot: SymbolBookSnapshot): Check {
  const { symbol, offset, partition } = snapshot.payload;
  const restored = SymbolBook.restore(ctx.markets.book(symbol)!, defaultMatchingEngineSettings.recentCommandIds, {
    ...snapshot.payload,
    ts: snapshot.ts,
  });
  const [rebuilt, live] = [engines.get(symbol)!.stateHash(), restored.stateHash()];
  return {
    name: `snapshot ${symbol}`,
    ok: rebuilt === live,
    detail: `at ${commands}/${partition}@${offset}: rebuilt ${rebuilt} live snapshot ${live}`,
  };
}

/** What the fold decided must be what the live engine journaled (clock ticks aside), in the same order, byte for byte. */
async function eventsCheck(
  ctx: ReplayContext,
  partition: number,
  decided: { id: string; value: string }[],
): Promise<Check> {
  const journaled: string[] = [];
  const seen = new Set<string>();
  await ctx.log.read(events, partition, 0, async (records) => {
    for (const r of records) {
      const { id, type } = JSON.parse(r.value) as { id: string; type: string };
      // The engine's clock ticks come from its wall clock, not from a command: no fold decides them.
      if (type === 'ClockTicked' || seen.has(id)) continue;
      seen.add(id);
      journaled.push(r.value);
    }
  });
  const firstDifference = decided.findIndex((d, i) => !sameEvent(journaled[i], d.value));
  const ok = firstDifference === -1 && journaled.length >= decided.length;
  const detail = ok
    ? `${decided.length} events equal to the live journal's first ${decided.length} (of ${journaled.length})`
    : `first difference at event ${firstDifference === -1 ? journaled.length : firstDifference} (${decided[firstDifference === -1 ? journaled.length : firstDifference]?.id ?? '?'})`;
  return { name: `${events}/${partition}`, ok, detail };
}

function writeBooks(dir: string, engines: SymbolEngines, offsets: number[]): void {
  mkdirSync(dir, { recursive: true });
  for (let p = 0; p < offsets.length; p++) {
    for (const book of engines.booksOf(p)) {
      writeFileSync(
        join(dir, `${book.symbol}.json`),
        JSON.stringify({
          symbol: book.symbol,
          partition: p,
          offset: offsets[p],
          stateHash: book.stateHash(),
          ...book.state(),
        }) + '\n',
      );
    }
  }
}
