import type { TopicDefinition } from '@exchange/contracts';

/** One frame of the write-ahead log: topic definitions, appended records and offset commits, all optional. */
export interface JournalEntry {
  d?: TopicDefinition[];
  r?: StoredRecord[];
  c?: StoredCommit[];
}
export interface StoredRecord {
  t: string;
  p: number;
  k: string;
  v: string;
  h?: Record<string, string>;
  ts: number;
  /** The producer's message (OutgoingRecord.message): in memory only, never encoded. */
  m?: unknown;
}
export interface StoredCommit {
  g: string;
  t: string;
  p: number;
  o: number;
}
