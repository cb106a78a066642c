import { MessagePattern } from '@nestjs/microservices';

export interface ConsumeBatchesOptions {
  topic: string;
  groupId: string;
  fromBeginning?: boolean;
  maxBatchSize?: number;
  /** See ConsumerOptions.readUnsynced: only for a handler whose effects are its returned records. */
  readUnsynced?: boolean;
}

export const EVENT_LOG_EXTRAS_KEY = 'eventLog';

/**
 * Marks a controller method as the handler of a topic's batches for one consumer group. The
 * method receives an IncomingBatch and returns a BatchOutcome (or nothing); the event-log
 * transport commits the returned records and the batch's offset as one atomic step.
 */
export function ConsumeBatches(options: ConsumeBatchesOptions): MethodDecorator {
  return MessagePattern(`${options.groupId}:${options.topic}`, { [EVENT_LOG_EXTRAS_KEY]: options });
}
