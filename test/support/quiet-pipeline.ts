import { LEDGER_PROJECTION_GROUP, Topics } from '@exchange/contracts';
import { LEDGER_GROUP } from '@exchange/ledger';
import { MATCHING_ENGINE_GROUP } from '@exchange/matching-engine';
import type { EventLog } from '@exchange/messaging';
import { WALLET_GROUP } from '@exchange/wallet';
import { http } from './http-client';
import { samples } from './prometheus-text';
import { waitFor } from './wait-for';

/** One look at part of the pipeline: records or rows still waiting, and what its progress reads now. */
export interface PipelineLook {
  pending: number;
  progress: string;
}

export type PipelineProbe = () => Promise<PipelineLook>;

/**
 * The consumer groups whose work decides what a quiet exchange holds, with their inputs: the
 * ledger and its projection, the matching engine, the wallet. Groups off the money path (market
 * data, user streams, clock ticks) may move on forever without making a check race.
 */
export const MONEY_PATH_STAGES = [
  { group: LEDGER_GROUP, topic: Topics.ledgerCommands.name },
  { group: LEDGER_PROJECTION_GROUP, topic: Topics.ledgerEvents.name },
  { group: MATCHING_ENGINE_GROUP, topic: Topics.orderCommands.name },
  { group: WALLET_GROUP, topic: Topics.walletCommands.name },
] as const;

/**
 * Lag of `stages` through the event log port: each group's committed offsets against the topic's
 * end offsets (the Kafka adapter commits past transaction markers, so a caught-up group reaches
 * the end). Progress is the end offsets.
 */
export function committedLagProbe(log: EventLog, stages: readonly { group: string; topic: string }[]): PipelineProbe {
  return async () => {
    let pending = 0;
    const ends: string[] = [];
    for (const { group, topic } of stages) {
      const [end, committed] = await Promise.all([log.endOffsets(topic), log.committedOffsets(group, topic)]);
      end.forEach((e, p) => (pending += Math.max(0, e - (committed[p] ?? 0))));
      ends.push(end.join(','));
    }
    return { pending, progress: ends.join('|') };
  };
}

/**
 * Lag of the money-path groups of a running exchange process, from its metrics endpoint
 * (event_log_consumer_lag: end offset minus the group's position, per partition): what a test
 * outside the process reads of the log it owns.
 */
export function metricsLagProbe(metricsUrl: string): PipelineProbe {
  const groups: readonly string[] = MONEY_PATH_STAGES.map((s) => s.group);
  return async () => {
    const text = (await http<string>(metricsUrl, 'GET', '/metrics')).body;
    const lags = groups.map((group) => samples(text, 'event_log_consumer_lag', { group }));
    // A group reports a lag once it has a position: until the ledger and its projection do, nothing says they caught up.
    const unknown = lags[0]!.length === 0 || lags[1]!.length === 0 ? 1 : 0;
    return { pending: unknown + lags.flat().reduce((a, b) => a + b, 0), progress: '' };
  };
}

/**
 * PostgreSQL-side progress of `schemas` (each with `checkpoints(next_offset)` and `outbox`):
 * rows still to publish, and how far the checkpoints are. `query` runs SQL on the database.
 */
export function outboxProbe(
  query: (sql: string) => Promise<{ progress: string; pending: number }[]>,
  schemas: readonly string[],
): PipelineProbe {
  const sum = (parts: string[]) => parts.join(' + ');
  const sql =
    `SELECT (${sum(schemas.map((s) => `(SELECT coalesce(sum(next_offset), 0) FROM "${s}".checkpoints)`))})::text AS progress, ` +
    `(${sum(schemas.map((s) => `(SELECT count(*) FROM "${s}".outbox)`))})::int AS pending`;
  return async () => {
    const [row] = await query(sql);
    return { pending: row!.pending, progress: row!.progress };
  };
}

/**
 * Waits until the pipeline is quiet: nothing pending anywhere the probes look (no group behind
 * its input, no outbox row) on two polls a second apart, with the same progress on both (a batch
 * handed over but not yet committed at the first poll has moved something by the second).
 */
export async function waitUntilQuiet(
  probes: readonly PipelineProbe[],
  what: string,
  timeoutMs = 90_000,
): Promise<void> {
  let last: string | undefined;
  await waitFor(
    async () => {
      const looks = await Promise.all(
        probes.map((probe) => probe().catch(() => ({ pending: 1, progress: 'unreachable' }))),
      );
      const idle = looks.every((l) => l.pending === 0);
      const progress = looks.map((l) => l.progress).join('/');
      const quiet = idle && progress === last;
      last = idle ? progress : undefined;
      return quiet;
    },
    what,
    timeoutMs,
    1000,
  );
}
