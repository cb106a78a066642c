/**
 * kafkajs 2.2.4's RequestQueue (one per broker connection) re-arms a timer after every look at its
 * pending requests, even when none are pending: unthrottled, `throttledUntil - Date.now()` is
 * negative, so the timer fires after 1 ms, finds the queue empty and re-arms (kafkajs issue #1556;
 * the fix, PR #1667, was never released). A process that has sent one Kafka request wakes about
 * 1,000 times a second from then on: measured 40–60 ms of CPU per second in each idle service of
 * the distributed mode (and 40 ms/s for a lone connected kafkajs admin), about 0.4 of a core for
 * its eight processes, idle or not.
 *
 * Nothing pending means nothing to check: a request queued later arms its own check (`push`), and
 * a request that completes looks at the queue again (`fulfillRequest`, the timeout handler). So the
 * check is armed only while something is pending, as upstream's fix does. Patched only on the
 * version whose code this was read from: another version may have fixed or moved it, and
 * kafkajs-idle-timer.spec.ts then fails so that someone looks again.
 */
const PATCHED_VERSION = '2.2.4';
const patched = Symbol.for('exchange.kafkajs.idleTimerPatched');

interface RequestQueuePrototype {
  pending: unknown[];
  scheduleCheckPendingRequests(this: RequestQueuePrototype): void;
  [patched]?: true;
}

/** Applies the fix to kafkajs's RequestQueue once per process; true when it is in place. */
export function patchKafkajsIdleTimer(): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_VERSION) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueuePrototype };
  const prototype = RequestQueue.prototype;
  if (prototype[patched]) return true;
  const schedule = prototype.scheduleCheckPendingRequests;
  prototype.scheduleCheckPendingRequests = function (this: RequestQueuePrototype) {
    if (this.pending.length === 0) return;
    schedule.call(this);
  };
  prototype[patched] = true;
  return true;
}
