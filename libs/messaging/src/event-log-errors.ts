/**
 * The event log cannot take appends now (disk full, data folder unwritable, broker unreachable):
 * nothing of the failed append was acknowledged, and a retry can succeed once the cause is gone.
 */
export class EventLogUnavailableError extends Error {
  readonly code = 'EVENT_LOG_UNAVAILABLE';
  readonly retriable = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventLogUnavailableError';
  }
}

/** Stored data failed its checks somewhere other than a torn tail: never skipped, always named. */
export class CorruptEventLogError extends Error {
  readonly code = 'EVENT_LOG_CORRUPT';
  readonly retriable = false;

  constructor(
    readonly file: string,
    readonly position: number,
    detail: string,
  ) {
    super(
      `event log: ${file} is corrupt at byte ${position}: ${detail}; refusing to go on rather than drop data (restore the file, or move it and what follows aside on purpose)`,
    );
    this.name = 'CorruptEventLogError';
  }
}

export function isEventLogUnavailable(error: unknown): error is EventLogUnavailableError {
  return (
    error instanceof EventLogUnavailableError ||
    (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EVENT_LOG_UNAVAILABLE')
  );
}
