export * from './embedded/embedded-event-log';
export * from './event-log.port';
export * from './kafka/kafka-event-log';
export * from './namespaced-event-log';
export * from './partitioning/murmur2-partitioner';
export * from './create-event-log';
export * from './nest/consume-batches.decorator';
export * from './nest/event-log.server';
