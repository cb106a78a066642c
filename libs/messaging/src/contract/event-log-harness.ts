import type { EventLog } from '../event-log.port';

/** How the shared contract suite opens one adapter, and how a child process opens the same store. */
export interface EventLogHarness {
  /** A new client of the same store: a restart, as far as the log can tell. */
  open(): Promise<EventLog>;
  /** Environment for crash-child.ts to open the same store. */
  childEnv: Record<string, string>;
  /** The embedded log has one writer per file: the parent closes its client while a child runs. */
  exclusiveWriter: boolean;
  /**
   * Runs retention and compaction now, where the adapter can be asked to (the embedded log); the
   * tests of retention and compaction are skipped without it (Kafka's cleaner runs on its own clock).
   */
  maintain?: (log: EventLog) => Promise<void>;
  /** Settings that make a topic roll segments of about `bytes`, as the adapter spells them. */
  segmentConfig?: (bytes: number) => Record<string, string>;
}
