import { type CustomTransportStrategy, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import type { BatchOutcome, Consumer, EventLog, IncomingBatch } from '../event-log.port';
import { type ConsumeBatchesOptions, EVENT_LOG_EXTRAS_KEY } from './consume-batches.decorator';

/**
 * A @nestjs/microservices transport over our event-log port, in place of Nest's built-in Kafka
 * transport: handlers receive whole batches and their return value is committed atomically with
 * the input offset, which Nest's per-message Kafka transport cannot express.
 */
export class EventLogServer extends Server implements CustomTransportStrategy {
  private readonly consumers: Consumer[] = [];

  constructor(private readonly log: EventLog) {
    super();
  }

  async listen(callback: (...optionalParams: unknown[]) => unknown): Promise<void> {
    try {
      for (const handler of this.messageHandlers.values()) {
        const options = handler.extras?.[EVENT_LOG_EXTRAS_KEY] as ConsumeBatchesOptions | undefined;
        if (!options) continue;
        this.consumers.push(
          await this.log.consume({
            groupId: options.groupId,
            topics: [options.topic],
            fromBeginning: options.fromBeginning,
            maxBatchSize: options.maxBatchSize,
            readUnsynced: options.readUnsynced,
            eachBatch: async (batch: IncomingBatch) => {
              const result = await handler(batch);
              return (await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined })) as
                BatchOutcome | undefined;
            },
          }),
        );
      }
      callback();
    } catch (error) {
      callback(error);
    }
  }

  /** Stops every consumer after the batch in hand, so a SIGTERM never leaves a half-committed step. */
  async close(): Promise<void> {
    await Promise.all(this.consumers.splice(0).map((c) => c.stop()));
  }

  on(): never {
    throw new Error('EventLogServer has no events to subscribe to');
  }

  unwrap<T>(): T {
    return this.log as T;
  }
}
