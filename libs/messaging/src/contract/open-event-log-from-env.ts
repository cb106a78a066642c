import { EmbeddedEventLog } from '../embedded/embedded-event-log';
import type { EventLog } from '../event-log.port';
import { KafkaEventLog } from '../kafka/kafka-event-log';

/** Opens the adapter named by CONTRACT_LOG_KIND for the crash child. */
export async function openEventLogFromEnv(env: NodeJS.ProcessEnv): Promise<EventLog> {
  if (env.CONTRACT_LOG_KIND === 'kafka') {
    return new KafkaEventLog({ brokers: (env.KAFKA_BROKERS ?? '').split(','), clientId: 'crash-child' });
  }
  return EmbeddedEventLog.open({ dir: env.CONTRACT_LOG_DIR ?? '', fsync: 'always' });
}
