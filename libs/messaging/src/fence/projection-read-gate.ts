import type { Provider } from '@nestjs/common';
import { ApiError, CONFIG, type Config, ErrorCode, EVENT_LOG, type ReadGate } from '@exchange/platform';
import type { EventLog } from '../event-log.port';
import { FenceTimeout, OffsetFence } from './offset-fence';

/**
 * A projection's readers wait, before each query, until the projection has passed what its topic
 * held when the query arrived (OffsetFence): a read after a reply reflects it, whichever replica
 * gave the reply. A projection too far behind to pass in time answers as a busy backend does
 * (503 / -1016), never with data older than a reply the client holds.
 */
export function fenceReadGate(fence: OffsetFence): ReadGate {
  return async () => {
    try {
      await fence.passed();
    } catch (error) {
      if (error instanceof FenceTimeout)
        throw new ApiError(
          ErrorCode.SERVICE_UNAVAILABLE,
          'The exchange is busy and cannot answer this query right now; try again shortly.',
        );
      throw error;
    }
  };
}

/** `token` as the ReadGate of the projection `groupId` writes from `topic`, bounded by READ_AFTER_WRITE_TIMEOUT_MS. */
export function projectionReadGateProvider(token: symbol, groupId: string, topic: string): Provider {
  return {
    provide: token,
    inject: [EVENT_LOG, CONFIG],
    useFactory: (log: EventLog, config: Config) =>
      fenceReadGate(new OffsetFence(log, { groupId, topic, timeoutMs: config.READ_AFTER_WRITE_TIMEOUT_MS })),
  };
}
