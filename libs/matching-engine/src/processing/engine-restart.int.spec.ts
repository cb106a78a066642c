import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OrderCommand, Topics } from '@exchange/contracts';
import type { EmbeddedEventLog } from '@exchange/messaging';
import { waitFor } from '../../../../test/support/wait-for';
import { SnapshotHeaders, type SymbolBookSnapshot } from '../books/symbol-book-snapshot';
import { MATCHING_ENGINE_GROUP } from '../matching-engine.settings';
import {
  allCommandsCommitted,
  publishCommands,
  readTopic,
  type RunningEngine,
  startEngine,
} from '../testing/engine-harness';
import { randomOrderCommands } from '../testing/order-commands.fixtures';

const symbols = ['BTCUSDT', 'ETHBTC'] as const;
const settings = { snapshotEvery: 100 };

/** Both symbols' seeded streams, interleaved as they would arrive. */
const commands: OrderCommand[] = (() => {
  const btc = randomOrderCommands('BTCUSDT', 7, 400, 0);
  const eth = randomOrderCommands('ETHBTC', 11, 400, 1_000_000);
  return btc.flatMap((c, i) => [c, eth[i]!]);
})();

interface RunResult {
  /** order.events values per partition, raw bytes. */
  events: string[][];
  /** ledger.commands values per partition and symbol (symbols share user partitions in no fixed order). */
  settlements: Map<string, string[]>;
  hashes: Record<string, { book: string; engine: string }>;
}

async function collect(engine: RunningEngine): Promise<RunResult> {
  const events: string[][] = [];
  for (const r of await readTopic(engine.log, Topics.orderEvents.name)) (events[r.partition] ??= []).push(r.value);
  const settlements = new Map<string, string[]>();
  for (const r of await readTopic(engine.log, Topics.ledgerCommands.name)) {
    const key = `${r.partition}/${(JSON.parse(r.value) as { payload: { symbol: string } }).payload.symbol}`;
    settlements.set(key, [...(settlements.get(key) ?? []), r.value]);
  }
  const hashes = Object.fromEntries(
    symbols.map((s) => [
      s,
      { book: engine.engines.get(s)!.stateHash(), engine: engine.engines.get(s)!.engineStateHash() },
    ]),
  );
  return { events, settlements, hashes };
}

async function publishAndDrain(engine: RunningEngine, batch: readonly OrderCommand[]): Promise<void> {
  await publishCommands(engine.log, batch);
  await waitFor(() => allCommandsCommitted(engine.log), `${batch.length} commands committed`, 10_000);
}

async function snapshotsOf(log: EmbeddedEventLog): Promise<SymbolBookSnapshot[]> {
  return (await readTopic(log, Topics.engineSnapshots.name)).map((r) => JSON.parse(r.value) as SymbolBookSnapshot);
}

function rebuilds(engine: RunningEngine): Record<string, unknown>[] {
  return engine.logs.filter((l) => l.msg === 'matching-engine: partition rebuilt');
}

describe('matching engine restarts: snapshots, replay and dedupe across runs', () => {
  let uninterrupted: RunResult;

  beforeAll(async () => {
    const engine = await startEngine(mkdtempSync(join(tmpdir(), 'matching-engine-a-')), settings);
    await publishAndDrain(engine, commands);
    uninterrupted = await collect(engine);
    await engine.close();
  });

  it('produces the same order.events, settlements and state hashes with a graceful stop and a crash in the middle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matching-engine-b-'));

    // Run 1: a third of the stream, then a graceful stop, which snapshots at the committed offsets.
    let engine = await startEngine(dir, settings);
    await publishAndDrain(engine, commands.slice(0, 300));
    await engine.close();

    // Run 2: rebuilt from those snapshots; repeats of old command ids are dropped by the restored window.
    engine = await startEngine(dir, settings);
    const committed = await engine.log.committedOffsets(MATCHING_ENGINE_GROUP, Topics.orderCommands.name);
    const atShutdown = (await snapshotsOf(engine.log)).filter(
      (s) => s.payload.offset === committed[s.payload.partition],
    );
    expect(atShutdown.map((s) => s.payload.symbol).sort()).toEqual([...symbols]);
    await publishAndDrain(engine, [...commands.slice(300, 550), commands[10]!, commands[11]!]);
    await publishAndDrain(engine, commands.slice(550, 555));
    await plantSnapshotBeyondCommitted(engine);
    await engine.crash();

    // Run 3: no shutdown snapshot this time; the planted one is past the committed offset and must be ignored.
    engine = await startEngine(dir, settings);
    await publishAndDrain(engine, [...commands.slice(555), commands[400]!]);
    const restarted = await collect(engine);
    const replays = rebuilds(engine);
    await engine.close();

    expect(restarted.hashes).toEqual(uninterrupted.hashes);
    expect(restarted.events).toEqual(uninterrupted.events);
    expect(restarted.settlements).toEqual(uninterrupted.settlements);
    // The crash left commands after the last periodic snapshot: run 3 replayed them from it.
    expect(
      replays.some((r) => (r.snapshots as number) > 0 && (r.from as number) > 0 && (r.replayed as number) > 0),
    ).toBe(true);
  });

  it('snapshots every N input offsets, and a fresh engine rebuilds the same books from them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matching-engine-c-'));
    let engine = await startEngine(dir, settings);
    await publishAndDrain(engine, commands);
    const snapshots = await snapshotsOf(engine.log);
    await engine.crash();
    expect(snapshots.length).toBeGreaterThan(0);
    for (const symbol of symbols)
      expect(snapshots.some((s) => s.payload.symbol === symbol && s.payload.offset >= settings.snapshotEvery)).toBe(
        true,
      );

    // One more command makes the restarted engine rebuild (snapshot + replay) before deciding it.
    engine = await startEngine(dir, settings);
    const rebuilt = await collectAfterOneMore(engine);
    await engine.close();
    expect(rebuilds(engine).length).toBeGreaterThan(0);
    for (const symbol of symbols) expect(rebuilt[symbol]).toEqual(uninterrupted.hashes[symbol]!.engine);
  });
});

/** A snapshot of an empty BTCUSDT book claiming an offset the group never committed. */
async function plantSnapshotBeyondCommitted(engine: RunningEngine): Promise<void> {
  const partition = engine.engines.partitionOf('BTCUSDT');
  const offset = 1_000_000;
  const snapshot: SymbolBookSnapshot = {
    type: 'SymbolBookSnapshot',
    v: 1,
    id: `BTCUSDT@${partition}:${offset}`,
    ts: 0,
    payload: {
      symbol: 'BTCUSDT',
      partition,
      offset,
      marketsVersion: 1,
      engine: { version: 1, status: 'TRADING', lastTradeId: 0, lastUpdateId: 0, bids: [], asks: [] },
      orders: [],
      recentCommandIds: [],
    },
  };
  const headers = { [SnapshotHeaders.partition]: String(partition), [SnapshotHeaders.offset]: String(offset) };
  await engine.log.publish([
    { topic: Topics.engineSnapshots.name, key: 'BTCUSDT', value: JSON.stringify(snapshot), headers },
  ]);
}

/** Engine state hashes after a SetSymbolStatus TRADING per symbol, which changes nothing in the books. */
async function collectAfterOneMore(engine: RunningEngine): Promise<Record<string, string>> {
  await publishAndDrain(
    engine,
    symbols.map((symbol) => ({
      type: 'SetSymbolStatus',
      v: 1,
      id: `noop-${symbol}`,
      ts: 1,
      payload: { symbol, status: engine.engines.get(symbol)!.state().engine.status },
    })),
  );
  return Object.fromEntries(symbols.map((s) => [s, engine.engines.get(s)!.engineStateHash()]));
}
