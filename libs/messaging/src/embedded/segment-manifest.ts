import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { TopicDefinition } from '@exchange/contracts';
import { CorruptEventLogError } from '../event-log-errors';
import type { SegmentMeta } from './partition-log';

/**
 * The checkpoint of the embedded log: its topics, each partition's segments up to where they were
 * synced, every consumer group's committed offsets, and the write-ahead log that continues from
 * there. Rewritten whole and atomically (temp file, fsync, rename, fsync of the folder), so the
 * offsets of a group take one line here however often they are committed.
 */
export interface Manifest {
  v: 1;
  /** Bumped at every checkpoint; names the write-ahead log and compacted segment files. */
  generation: number;
  wal: string;
  topics: TopicDefinition[];
  segments: Record<string, SegmentMeta[]>;
  /** [group, topic, partition, next offset] */
  commits: [string, string, number, number][];
}

export const MANIFEST_FILE = 'manifest.json';
/** The single journal file of earlier versions: replayed once into segments, then removed. */
export const LEGACY_JOURNAL_FILE = 'journal.log';
export const walFileName = (generation: number): string => `wal-${String(generation).padStart(10, '0')}.log`;
export const isWalFile = (file: string): boolean => /^wal-\d+\.log$/.test(file);

export function readManifest(dir: string): Manifest | undefined {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch (error) {
    throw new CorruptEventLogError(path, 0, `it does not parse (${String(error)})`);
  }
}

export function writeManifest(dir: string, manifest: Manifest): void {
  const path = join(dir, MANIFEST_FILE);
  const temp = `${path}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    const data = Buffer.from(JSON.stringify(manifest));
    for (let done = 0; done < data.length;) done += writeSync(fd, data, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  syncFolder(dir);
}

export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The folder's entries made durable, on the threadpool: for work that runs while appends go on. */
export async function syncFolderAsync(dir: string): Promise<void> {
  const folder = await open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
