import type { Kafka } from 'kafkajs';

/**
 * End offsets and committed offsets at one broker request each. kafkajs 2.2.4's admin asks more:
 * its cluster keeps metadata for no time (metadataMaxAge 0), so every fetchTopicOffsets and
 * fetchOffsets begins with a Metadata request, and fetchTopicOffsets lists both ends of the topic
 * (two ListOffsets) where only the end is wanted. A gateway's lag check (two topics, two groups)
 * was eight requests a second per gateway, idle or not, and a read waiting for a projection paid
 * a Metadata request per poll.
 *
 * This is kafkajs's own cluster (the client that every kafkajs client wraps), made through the
 * Kafka instance's private factory with metadata kept as long as kafkajs's producers and consumers
 * keep it (5 minutes), and used directly: one ListOffsets per leader for the latest stable offsets
 * of every topic asked in the same tick (read_committed, as the admin's), one OffsetFetch to the
 * group's coordinator (remembered, see kafkajs-coordinator-cache). Metadata kept that long may
 * name a leader that has moved: any failed request refreshes it, and the caller's retry asks the
 * new leader. Only on the version whose code this was read from; elsewhere `kafkajsOffsets`
 * answers undefined and the admin is used as before.
 */
const PATCHED_VERSION = '2.2.4';
const METADATA_MAX_AGE_MS = 300_000;

interface PartitionOffset {
  partition: number;
  offset: string;
}

interface KafkajsCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  refreshMetadataIfNecessary(): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  findTopicPartitionMetadata(topic: string): { partitionId: number }[];
  fetchTopicsOffset(
    topics: { topic: string; fromBeginning: boolean; partitions: { partition: number }[] }[],
  ): Promise<{ topic: string; partitions: PartitionOffset[] }[]>;
  findGroupCoordinator(args: { groupId: string }): Promise<{
    offsetFetch(args: {
      groupId: string;
      topics: { topic: string; partitions: { partition: number }[] }[];
    }): Promise<{ responses: { topic: string; partitions: PartitionOffset[] }[] }>;
  }>;
}

type ClusterFactory = (options: { metadataMaxAge: number; allowAutoTopicCreation: boolean }) => KafkajsCluster;

export interface KafkajsOffsets {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /** Each topic's latest stable offset by partition, in one request per partition leader. */
  endOffsets(topics: readonly string[]): Promise<Map<string, PartitionOffset[]>>;
  /** The group's committed offsets of the topic's partitions (-1 where none). */
  committedOffsets(groupId: string, topic: string): Promise<PartitionOffset[]>;
}

/** The offsets client of `kafka`, or undefined on a kafkajs version this was not read from. */
export function kafkajsOffsets(kafka: Kafka): KafkajsOffsets | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_VERSION) return undefined;
  const factory = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  if (!factory) return undefined;
  const create = (kafka as unknown as Record<symbol, ClusterFactory>)[factory]!;
  const cluster = create({ metadataMaxAge: METADATA_MAX_AGE_MS, allowAutoTopicCreation: false });
  return {
    connect: () => cluster.connect(),
    disconnect: () => cluster.disconnect(),
    endOffsets: (topics) =>
      refreshingOnError(cluster, async () => {
        const partitions = await partitionsOf(cluster, topics);
        const answered = await cluster.fetchTopicsOffset(
          topics.map((topic) => ({ topic, fromBeginning: false, partitions: partitions.get(topic)! })),
        );
        const byTopic = new Map(answered.map((t) => [t.topic, t.partitions]));
        for (const topic of topics) {
          // A partition without a leader yet (a topic just created) is left out of the requests.
          if ((byTopic.get(topic)?.length ?? 0) < partitions.get(topic)!.length)
            throw retriable(`kafka: not every partition of ${topic} answered its end offset yet`);
        }
        return byTopic;
      }),
    committedOffsets: (groupId, topic) =>
      refreshingOnError(cluster, async () => {
        const partitions = (await partitionsOf(cluster, [topic])).get(topic)!;
        const coordinator = await cluster.findGroupCoordinator({ groupId });
        const { responses } = await coordinator.offsetFetch({ groupId, topics: [{ topic, partitions }] });
        return responses.find((r) => r.topic === topic)?.partitions ?? [];
      }),
  };
}

async function partitionsOf(
  cluster: KafkajsCluster,
  topics: readonly string[],
): Promise<Map<string, { partition: number }[]>> {
  await cluster.addMultipleTargetTopics([...topics]);
  await cluster.refreshMetadataIfNecessary();
  const out = new Map<string, { partition: number }[]>();
  for (const topic of topics) {
    const partitions = cluster.findTopicPartitionMetadata(topic).map((p) => ({ partition: p.partitionId }));
    if (partitions.length === 0) throw retriable(`kafka: no partitions known for ${topic} yet`);
    out.set(topic, partitions);
  }
  return out;
}

/** A failed request may come from metadata gone stale (a leader moved): the next try works from fresh metadata. */
async function refreshingOnError<T>(cluster: KafkajsCluster, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    await cluster.refreshMetadata().catch(() => undefined);
    throw error;
  }
}

function retriable(message: string): Error {
  return Object.assign(new Error(message), { retriable: true });
}
