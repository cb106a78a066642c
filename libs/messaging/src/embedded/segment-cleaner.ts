import { indexFileName, type PartitionLog, type SegmentMeta } from './partition-log';
import type { CompactionPlan } from './segment-compaction';

/** What a topic definition's Kafka settings ask of the embedded log. */
export interface CleanupPolicy {
  /** -1: forever. */
  retentionMs: number;
  /** Per partition; -1: unbounded. */
  retentionBytes: number;
  compact: boolean;
}

export function cleanupPolicyOf(config: Readonly<Record<string, string>>): CleanupPolicy {
  const policies = (config['cleanup.policy'] ?? 'delete').split(',').map((p) => p.trim());
  const deletes = policies.includes('delete');
  return {
    retentionMs: deletes ? Number(config['retention.ms'] ?? -1) : -1,
    retentionBytes: deletes ? Number(config['retention.bytes'] ?? -1) : -1,
    compact: policies.includes('compact'),
  };
}

/**
 * Applies retention to one partition's sealed segments, as Kafka's log cleaner does: whole
 * segments past retention (by the append time of their newest record, or by the partition's size)
 * are dropped from the front. The active segment is never rewritten; when every record in it is
 * past retention it is sealed first, so a quiet topic still expires. Compaction is planned off
 * the append path (segment-compaction.ts) and switched in by applyCompaction.
 * Returns the files the new segment list no longer names, to delete once the manifest is written.
 */
export function cleanPartition(log: PartitionLog, policy: CleanupPolicy, now: number): string[] {
  if (policy.retentionMs < 0 && policy.retentionBytes < 0) return [];
  return expire(log, policy, now);
}

/** Whether sealed segments were added since the partition was last compacted. */
export function compactionDue(log: PartitionLog, state: CompactionState): boolean {
  const sealed = log.segments.filter((s) => s.sealed);
  const through = sealed[sealed.length - 1]?.next;
  return through !== undefined && through !== state.compactedThrough;
}

export interface CompactionState {
  /** The end of the sealed segments last compacted, so an unchanged partition is not reread. */
  compactedThrough?: number;
}

function expire(log: PartitionLog, policy: CleanupPolicy, now: number): string[] {
  const horizon = now - policy.retentionMs;
  const active = log.segments[log.segments.length - 1]!;
  if (policy.retentionMs >= 0 && active.bytes > 0 && active.maxTs <= horizon) log.roll();
  const sealed = log.segments.filter((s) => s.sealed);
  let total = log.sizeBytes;
  let dropped = 0;
  for (const segment of sealed) {
    const expired = policy.retentionMs >= 0 && segment.maxTs <= horizon;
    const oversize = policy.retentionBytes >= 0 && total - segment.bytes >= policy.retentionBytes;
    if (!expired && !oversize) break;
    total -= segment.bytes;
    dropped += 1;
  }
  if (dropped === 0) return [];
  log.replaceSealed(sealed.slice(dropped));
  return filesOf(sealed.slice(0, dropped));
}

/**
 * Puts a plan's replacements in the place of the sealed segments it read, as far as they are still
 * the ones listed: retention, or the compression of a segment, may have replaced one since. Such a
 * segment stays as it is (a superset of its plan), its replacement is let go, and the next run
 * plans again. Returns the files no longer named (replaced segments, unused replacements), to
 * delete once the manifest is written.
 */
export function applyCompaction(log: PartitionLog, plan: CompactionPlan, state: CompactionState): string[] {
  const sealed = log.segments.filter((s) => s.sealed);
  const listed = new Set(sealed.map((s) => s.file));
  const planned = new Map(plan.segments.map((p) => [p.original.file, p]));
  const unused = plan.segments.filter((p) => !listed.has(p.original.file));
  if (unused.length === 0) state.compactedThrough = plan.through;
  const obsolete = filesOf(unused.flatMap((p) => (p.replacement ? [p.replacement] : [])));
  if (unused.length === plan.segments.length) return obsolete;
  const kept: SegmentMeta[] = [];
  for (const segment of sealed) {
    const replacing = planned.get(segment.file);
    if (!replacing) kept.push(segment);
    else if (replacing.replacement) kept.push(replacing.replacement);
  }
  log.replaceSealed(kept);
  return [...obsolete, ...filesOf(sealed.filter((s) => planned.has(s.file)))];
}

/** The files of a plan that was not applied. */
export function filesOfPlan(plan: CompactionPlan): string[] {
  return filesOf(plan.segments.flatMap((p) => (p.replacement ? [p.replacement] : [])));
}

function filesOf(segments: readonly SegmentMeta[]): string[] {
  return segments.flatMap((s) => [s.file, indexFileName(s.file)]);
}
