import { indexFileName, type PartitionLog, type SegmentMeta } from './partition-log';

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
 * Applies retention and compaction to one partition's sealed segments, as Kafka's log cleaner
 * does: whole segments past retention (by the append time of their newest record, or by the
 * partition's size) are dropped from the front; a compacted topic's sealed segments are rewritten
 * keeping the latest record of each key, at its offset. The active segment is never rewritten;
 * when every record in it is past retention it is sealed first, so a quiet topic still expires.
 * Returns the files the new segment list no longer names, to delete once the manifest is written.
 */
export function cleanPartition(
  log: PartitionLog,
  policy: CleanupPolicy,
  now: number,
  generation: number,
  state: { compactedThrough?: number },
): string[] {
  const obsolete: string[] = [];
  if (policy.retentionMs >= 0 || policy.retentionBytes >= 0) obsolete.push(...expire(log, policy, now));
  if (policy.compact) obsolete.push(...compact(log, generation, state));
  return obsolete;
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

function compact(log: PartitionLog, generation: number, state: { compactedThrough?: number }): string[] {
  const sealed = log.segments.filter((s) => s.sealed);
  const through = sealed[sealed.length - 1]?.next;
  if (through === undefined || through === state.compactedThrough) return [];
  const latest = new Map<string, number>();
  for (const segment of log.segments) for (const r of log.scan(segment)) latest.set(r.k, r.o);
  const kept: SegmentMeta[] = [];
  const obsolete: SegmentMeta[] = [];
  for (const segment of sealed) {
    const records = log.scan(segment);
    const survivors = records.filter((r) => latest.get(r.k) === r.o);
    if (survivors.length === records.length) {
      kept.push(segment);
      continue;
    }
    obsolete.push(segment);
    if (survivors.length > 0) kept.push(log.writeSealed(segment.base, segment.next, survivors, generation));
  }
  state.compactedThrough = through;
  if (obsolete.length === 0) return [];
  log.replaceSealed(kept);
  return filesOf(obsolete);
}

function filesOf(segments: readonly SegmentMeta[]): string[] {
  return segments.flatMap((s) => [s.file, indexFileName(s.file)]);
}
