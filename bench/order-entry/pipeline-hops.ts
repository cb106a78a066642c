// The latency of each hop of an order through the pipeline, from what the journal already holds:
// every record carries its append time and the correlation id of the HTTP request that caused it
// (x-correlation-id), so nothing is added to the order path to measure it. Per order:
//   gateway   the client's send → its command appended to ledger.commands (HTTP, signature, journal write)
//   ledger    → the ledger's step appended the engine's command (order.commands)
//   engine    → the engine's step appended its first order.events record
//   ledger'   → the ledger's last ledger.events record of the order (its outcome applied)
//   reply     → the client had the answer
// The first and last need the client's times (the order clients keep them); the others come from
// the journal alone. Record times are whole milliseconds (Date.now at append).
import { allTopics, HeaderNames, Topics } from '@exchange/contracts';
import type { EventLog, IncomingRecord } from '@exchange/messaging';
import { formatNumber, percentile } from '../support/stats';

interface OrderTimes {
  submitted?: number;
  placed?: number;
  matched?: number;
  settled?: number;
}

export const HOPS = ['gateway', 'ledger', 'engine', "ledger'", 'reply'] as const;
export type Hops = Record<(typeof HOPS)[number], number[]>;

/** Each topic's first (or, for the outcome, last) record of the order: the gateway's command is the first on ledger.commands. */
function note(times: OrderTimes, record: IncomingRecord): void {
  const at = record.timestamp;
  const first = (was: number | undefined): number => Math.min(was ?? at, at);
  if (record.topic === Topics.ledgerCommands.name) times.submitted = first(times.submitted);
  else if (record.topic === Topics.orderCommands.name) times.placed = first(times.placed);
  else if (record.topic === Topics.orderEvents.name) times.matched = first(times.matched);
  else if (record.topic === Topics.ledgerEvents.name) times.settled = Math.max(times.settled ?? at, at);
}

/** Every order's record times, by correlation id, read from the whole log (after the run). */
export async function orderTimes(log: EventLog): Promise<Map<string, OrderTimes>> {
  const byId = new Map<string, OrderTimes>();
  const wanted = new Set<string>([
    Topics.ledgerCommands.name,
    Topics.orderCommands.name,
    Topics.orderEvents.name,
    Topics.ledgerEvents.name,
  ]);
  for (const topic of allTopics.filter((t) => wanted.has(t.name))) {
    const ends = await log.endOffsets(topic.name);
    for (let partition = 0; partition < ends.length; partition++) {
      if (ends[partition] === 0) continue;
      await log.read(topic.name, partition, 0, async (records) => {
        for (const record of records) {
          const id = record.headers[HeaderNames.correlationId];
          if (id === undefined) continue;
          const times = byId.get(id) ?? {};
          note(times, record);
          byId.set(id, times);
        }
      });
    }
  }
  return byId;
}

/**
 * The hops of the orders whose correlation ids `belongs` accepts; `client` gives the send and
 * answer times of those the order clients sent (the gateway and reply hops need them).
 */
export function hopsOf(
  times: Map<string, OrderTimes>,
  belongs: (id: string) => boolean,
  client: Record<string, [number, number]> = {},
): Hops {
  const hops: Hops = { gateway: [], ledger: [], engine: [], "ledger'": [], reply: [] };
  for (const [id, t] of times) {
    if (
      !belongs(id) ||
      t.submitted === undefined ||
      t.placed === undefined ||
      t.matched === undefined ||
      t.settled === undefined
    )
      continue;
    hops.ledger.push(t.placed - t.submitted);
    hops.engine.push(t.matched - t.placed);
    hops["ledger'"].push(t.settled - t.matched);
    const sent = client[id];
    if (sent === undefined) continue;
    hops.gateway.push(t.submitted - sent[0]);
    hops.reply.push(sent[1] - t.settled);
  }
  return hops;
}

/** One line: each hop's p50/p99 in ms, and how many orders they cover. */
export function formatHops(hops: Hops): string {
  const parts = HOPS.map((hop) => {
    const sorted = [...hops[hop]].sort((a, b) => a - b);
    return sorted.length === 0
      ? `${hop} -`
      : `${hop} ${formatNumber(percentile(sorted, 50), 1)}/${formatNumber(percentile(sorted, 99), 1)}`;
  });
  return `hops p50/p99 ms (${formatNumber(hops.ledger.length)} orders): ${parts.join(', ')}`;
}
