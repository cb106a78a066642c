import { ftruncateSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { EventLogUnavailableError } from '../event-log-errors';

export type FsyncPolicy = 'always' | 'never';

/** What the log does with a frame: once it is in the file, and once it is on disk. */
export interface FrameSteps {
  /** Runs in queue order once the frame is written (in the OS's cache): the log applies its step. */
  onWritten: () => void;
  /** Runs in queue order once the frame is durable (fdatasync with fsync 'always'). */
  onDurable?: () => void;
}

/**
 * How long a sync may wait for a chain of in-process steps to reach the file, after the oldest
 * write it would cover. An order is a chain of steps (gateway, ledger, engine, ledger again), each
 * deciding from the record the previous one wrote, a fraction of a ms apart on an idle core; an
 * fdatasync costs 0.5–3 ms on this machine's disk. Started at the first write, a sync covers only
 * the gateway's command and the order's reply waits for a second one; started once the chain has
 * settled, one covers it. Bounded below an fdatasync, so a chain that goes on costs at most what
 * the second sync did.
 */
export const SYNC_SETTLE_MS = 2;

type QueueItem =
  | ({ kind: 'frame'; frame: Buffer; resolve: () => void; reject: (error: unknown) => void } & FrameSteps)
  | { kind: 'task'; run: () => Promise<void>; resolve: () => void; reject: (error: unknown) => void };
type PendingWrite = Extract<QueueItem, { kind: 'frame' }>;

/**
 * Group commit in two stages: frames queued while a write is in flight go out together in the next
 * write, and frames written while an fdatasync is in flight are synced together by the next one.
 * The stages overlap: a write does not wait for the previous sync, so a step decided from a record
 * written a moment ago reaches the file while that record is being synced, and one sync covers a
 * whole chain of steps instead of one sync per step. An append resolves once its frame is durable.
 * Exclusive tasks (checkpoints, retention) run between writes, with nothing left unsynced.
 */
export class JournalWriter {
  private queue: QueueItem[] = [];
  private unsynced: PendingWrite[] = [];
  /** When the oldest frame of `unsynced` was written (performance.now()). */
  private unsyncedSince = 0;
  /** Frames appended plus frames written so far: a sync waiting to settle watches it move. */
  private activity = 0;
  private flushing: Promise<void> | undefined;
  private syncing: Promise<void> | undefined;
  /** Set when the log's state may no longer match the file: every later append is refused. */
  private failure: unknown;

  private constructor(
    private handle: FileHandle,
    private readonly fsync: FsyncPolicy,
    private size: number,
    private readonly afterBatch: () => void,
    private readonly settleMs: number,
  ) {}

  /**
   * `afterBatch` runs once the `onDurable` of every frame of a sync ran: work they share (e.g. one
   * file write per partition). `settleMs`: see SYNC_SETTLE_MS.
   */
  static async open(
    path: string,
    fsync: FsyncPolicy,
    afterBatch: () => void = () => {},
    settleMs = SYNC_SETTLE_MS,
  ): Promise<JournalWriter> {
    const handle = await open(path, 'a');
    return new JournalWriter(handle, fsync, (await handle.stat()).size, afterBatch, settleMs);
  }

  /** Bytes in the current file. */
  get bytes(): number {
    return this.size;
  }

  append(frame: Buffer, steps: FrameSteps): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.enqueue({ kind: 'frame', frame, ...steps, resolve, reject }));
  }

  /** Runs `run` alone, after the writes queued before it are durable and before those queued after. */
  exclusive(run: () => Promise<void>): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.enqueue({ kind: 'task', run, resolve, reject }));
  }

  /**
   * Continues in a new file, from an exclusive task: the file is opened first, then `commit` makes
   * it the one a restart reads (if it throws, nothing changed), then the old one is let go.
   */
  async rotate(path: string, commit: () => void): Promise<void> {
    const next = await open(path, 'a');
    try {
      commit();
    } catch (error) {
      await next.close();
      throw error;
    }
    await this.handle.close();
    this.handle = next;
    this.size = 0;
  }

  /** Resolves once everything queued so far is written, synced and applied. */
  async idle(): Promise<void> {
    while (this.flushing || this.syncing) await (this.flushing ?? this.syncing);
  }

  async close(): Promise<void> {
    await this.idle();
    await this.handle.close();
  }

  private enqueue(item: QueueItem): void {
    if (item.kind === 'frame') this.activity += 1;
    this.queue.push(item);
    this.flushing ??= this.flush();
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0 && this.failure === undefined) {
      const first = this.queue[0]!;
      if (first.kind === 'task') {
        while (this.syncing) await this.syncing;
        this.queue.shift();
        await first.run().then(first.resolve, first.reject);
        continue;
      }
      // The frames appended in this turn of the event loop go out in one write.
      await new Promise<void>((next) => setImmediate(next));
      const end = this.queue.findIndex((item) => item.kind === 'task');
      const batch = this.queue.splice(0, end < 0 ? this.queue.length : end) as PendingWrite[];
      if (!this.write(batch)) continue;
      if (!this.run(batch, (w) => w.onWritten())) break;
      if (this.fsync === 'never') this.durable(batch);
      else {
        this.activity += 1;
        if (this.unsynced.length === 0) this.unsyncedSince = performance.now();
        this.unsynced.push(...batch);
        this.syncing ??= this.sync();
      }
    }
    this.flushing = undefined;
  }

  /** Syncs what was written, as one fdatasync per round, until nothing written is left unsynced. */
  private async sync(): Promise<void> {
    while (this.unsynced.length > 0 && this.failure === undefined) {
      await this.settle();
      const batch = this.unsynced.splice(0);
      try {
        await this.handle.datasync();
      } catch (error) {
        // The frames were applied when written: the log's view can no longer be taken back to the file's.
        this.fail(unavailable(error), batch);
        break;
      }
      this.durable(batch);
    }
    this.syncing = undefined;
  }

  /**
   * Waits a turn of the event loop at a time while frames keep being appended or written (a step
   * decides in the turn after the write it reads), until a turn passes without either or
   * `settleMs` after the oldest unsynced write. Under load that moment has passed
   * by the time the previous sync returns, so only a sync after a quiet spell waits.
   */
  private async settle(): Promise<void> {
    const deadline = this.unsyncedSince + this.settleMs;
    for (let seen = -1; seen !== this.activity && performance.now() < deadline;) {
      seen = this.activity;
      await new Promise<void>((next) => setImmediate(next));
    }
  }

  private durable(batch: PendingWrite[]): void {
    if (!this.run(batch, (w) => w.onDurable?.())) return;
    try {
      this.afterBatch();
    } catch (error) {
      this.fail(error, batch);
      return;
    }
    for (const w of batch) w.resolve();
  }

  /** Runs one step of every frame; a step that throws leaves the log's view unlike the file: refuse appends until a restart replays them. */
  private run(batch: PendingWrite[], step: (w: PendingWrite) => void): boolean {
    try {
      for (const w of batch) step(w);
      return true;
    } catch (error) {
      this.fail(error, batch);
      return false;
    }
  }

  /**
   * Writes a batch into the OS's cache, synchronously: tens of µs, where a write on the thread pool
   * costs two thread hand-offs per step. On failure cuts what was half written, so appends can
   * resume once space returns.
   */
  private write(batch: PendingWrite[]): boolean {
    const bytes = batch.length === 1 ? batch[0]!.frame : Buffer.concat(batch.map((w) => w.frame));
    try {
      // A write may take only part of the bytes (a file-size limit, a disk filling up): go on until all are in or it fails.
      for (let done = 0; done < bytes.length;) done += writeSync(this.handle.fd, bytes, done);
      this.size += bytes.length;
      return true;
    } catch (error) {
      const refused = unavailable(error);
      try {
        ftruncateSync(this.handle.fd, this.size);
      } catch {
        this.fail(refused);
      }
      for (const w of batch) w.reject(refused);
      return false;
    }
  }

  private fail(error: unknown, batch: PendingWrite[] = []): void {
    this.failure = error;
    for (const item of [...batch, ...this.unsynced.splice(0), ...this.queue.splice(0)]) item.reject(error);
  }
}

function unavailable(error: unknown): EventLogUnavailableError {
  return new EventLogUnavailableError(
    `event log: the journal cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing of this append was acknowledged`,
    { cause: error },
  );
}
