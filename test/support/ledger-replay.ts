import { join } from 'node:path';
import { type LedgerJournalEvent, ledgerCommandSchema, Markets, parseLedgerEvent, Topics } from '@exchange/contracts';
import {
  decide,
  evolve,
  feeAccountIdOf,
  flowIdOf,
  initialLedgerState,
  LedgerStore,
  type LedgerState,
  ledgerStateHash,
  partitionContextOf,
} from '@exchange/ledger';
import { EmbeddedEventLog, type EventLog, partitionForKey } from '@exchange/messaging';
import type { DataSource } from 'typeorm';

/**
 * What a ledger that never crashed would hold: every command journaled on ledger.commands (the
 * gateway's and the engine's alike) decided exactly once, in partition order. Read from a stopped
 * exchange's embedded journal.
 */
export async function decideJournal(
  dataDir: string,
): Promise<{ state: LedgerState; eventIds: string[]; journaled: Map<string, LedgerJournalEvent>; partitions: number }> {
  const journal = await EmbeddedEventLog.open({ dir: join(dataDir, 'event-log') });
  try {
    return await decideLog(journal);
  } finally {
    await journal.close();
  }
}

/** The same, read from any event log (the distributed suite reads its Kafka namespace). */
export async function decideLog(
  journal: EventLog,
): Promise<{ state: LedgerState; eventIds: string[]; journaled: Map<string, LedgerJournalEvent>; partitions: number }> {
  const markets = Markets.fromFile('config/markets.json');
  const state = initialLedgerState();
  const eventIds: string[] = [];
  const partitions = await journal.partitionCount(Topics.ledgerCommands.name);
  for (let p = 0; p < partitions; p++) {
    const seen = new Set<string>();
    await journal.read(Topics.ledgerCommands.name, p, 0, async (records) => {
      for (const record of records) {
        const parsed = ledgerCommandSchema.safeParse(JSON.parse(record.value));
        if (!parsed.success || seen.has(parsed.data.id)) continue;
        seen.add(parsed.data.id);
        const ctx = {
          now: 0,
          flowId: (k: number) => flowIdOf(record.offset, p, k),
          asset: (a: string) => markets.asset(a),
          symbol: (s: string) => markets.symbol(s),
          contract: (s: string) => markets.contract(s),
          feeAccountId: feeAccountIdOf(p),
          partition: partitionContextOf(state, p, partitions, record.offset),
        };
        for (const e of decide(parsed.data, state, ctx)) {
          evolve(state, e);
          eventIds.push(e.id);
        }
      }
    });
  }
  const journaled = new Map<string, LedgerJournalEvent>();
  for (let p = 0; p < partitions; p++) {
    await journal.read(Topics.ledgerEvents.name, p, 0, async (records) => {
      for (const r of records) {
        const event = parseLedgerEvent(r.value);
        if (!event) throw new Error(`ledger.events ${p}@${r.offset} is not a ledger event: ${r.value}`);
        journaled.set(event.id, event);
      }
    });
  }
  return { state, eventIds, journaled, partitions };
}

/** The ledger's state as its tables hold it, loaded the way a restarted ledger loads it. */
export async function recoveredState(dataSource: DataSource, schema: string, partitions: number): Promise<LedgerState> {
  const state = initialLedgerState();
  const store = new LedgerStore(dataSource, schema, (userId) => partitionForKey(userId, partitions));
  for (let p = 0; p < partitions; p++)
    await store.loadPartition(state, Topics.ledgerCommands.name, p, Date.now(), feeAccountIdOf(p));
  return state;
}

/** The state hash without decision times (a replay cannot know the live clock). */
export function timelessHash(state: LedgerState): string {
  for (const [id, order] of state.orders)
    state.orders.set(id, { ...order, finalTime: order.finalTime === undefined ? undefined : 0 });
  for (const [id, order] of state.contracts.orders) state.contracts.orders.set(id, { ...order, time: 0 });
  for (const ended of [...state.clientIdsEnded.values(), ...state.contractClientIdsEnded.values()])
    for (const id of ended.keys()) ended.set(id, 0);
  return ledgerStateHash(state);
}
