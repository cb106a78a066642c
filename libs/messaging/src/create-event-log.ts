import { join } from 'node:path';
import { allTopics } from '@exchange/contracts';
import type { Config, Logger } from '@exchange/platform';
import { EmbeddedEventLog } from './embedded/embedded-event-log';
import type { EventLog } from './event-log.port';
import { KafkaEventLog } from './kafka/kafka-event-log';
import { NamespacedEventLog } from './namespaced-event-log';

/**
 * Kafka when KAFKA_BROKERS is set, the embedded log under DATA_DIR otherwise; topics and groups
 * under EVENT_LOG_NAMESPACE when set; every topic of libs/contracts created.
 */
export async function createEventLog(config: Config, logger: Logger): Promise<EventLog> {
  const onWarning = (message: string, details: Record<string, unknown>): void => logger.warn(details, message);
  const adapter = config.KAFKA_BROKERS
    ? new KafkaEventLog({
        brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()),
        clientId: config.KAFKA_CLIENT_ID,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        onWarning,
      })
    : await EmbeddedEventLog.open({ dir: join(config.DATA_DIR, 'event-log'), fsync: config.EVENT_LOG_FSYNC, onWarning });
  const log = config.EVENT_LOG_NAMESPACE ? new NamespacedEventLog(adapter, config.EVENT_LOG_NAMESPACE) : adapter;
  await log.createTopics(allTopics);
  logger.info({ adapter: config.KAFKA_BROKERS ? 'kafka' : 'embedded' }, 'event log ready');
  return log;
}
