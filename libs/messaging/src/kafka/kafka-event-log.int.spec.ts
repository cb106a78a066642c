import { realServiceAddress } from '../../../../test/support/real-services';
import { describeEventLogContract } from '../contract/event-log.contract';
import { KafkaEventLog } from './kafka-event-log';

const brokers = realServiceAddress('KAFKA_BROKERS', 'event log contract on Apache Kafka');

describeEventLogContract('kafka', async () => {
  if (!brokers) return undefined;
  return {
    open: async () => new KafkaEventLog({ brokers: brokers.split(','), clientId: 'contract-test' }),
    childEnv: { CONTRACT_LOG_KIND: 'kafka', KAFKA_BROKERS: brokers },
    exclusiveWriter: false,
  };
});
