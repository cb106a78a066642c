import { join } from 'node:path';
import { allTopics } from '@exchange/contracts';
import type { Config, Logger, Metrics } from '@exchange/platform';
import { EmbeddedEventLog } from './embedded/embedded-event-log';
import type { EventLog } from './event-log.port';
import { KafkaEventLog } from './kafka/kafka-event-log';
import { MeteredEventLog } from './metrics/metered-event-log';
import { NamespacedEventLog } from './namespaced-event-log';

/**
 * Kafka when KAFKA_BROKERS is set, the embedded log under DATA_DIR otherwise; topics and groups
 * under EVENT_LOG_NAMESPACE when set; every topic of libs/contracts created; with `metrics`,
 * consumer lag and throughput are measured (under the plain names, namespace left out).
 */
export async function createEventLog(config: Config, logger: Logger, metrics?: Metrics): Promise<EventLog> {
  const onWarning = (message: string, details: Record<string, unknown>): void => logger.warn(details, message);
  const adapter = config.KAFKA_BROKERS
    ? new KafkaEventLog({
        brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()),
        clientId: config.KAFKA_CLIENT_ID,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        onWarning,
      })
    : await EmbeddedEventLog.open({
        dir: join(config.DATA_DIR, 'event-log'),
        fsync: config.EVENT_LOG_FSYNC,
        syncSettleMs: config.EVENT_LOG_SYNC_SETTLE_MS,
        segmentBytes: config.EVENT_LOG_SEGMENT_BYTES,
        cacheBytes: config.EVENT_LOG_CACHE_BYTES,
        walBytes: config.EVENT_LOG_CHECKPOINT_BYTES,
        maintenanceIntervalMs: config.EVENT_LOG_MAINTENANCE_MS,
        onWarning,
      });
  const namespaced = config.EVENT_LOG_NAMESPACE ? new NamespacedEventLog(adapter, config.EVENT_LOG_NAMESPACE) : adapter;
  const log = metrics ? new MeteredEventLog(namespaced, metrics) : namespaced;
  await log.createTopics(allTopics);
  logger.info({ adapter: config.KAFKA_BROKERS ? 'kafka' : 'embedded' }, 'event log ready');
  return log;
}
