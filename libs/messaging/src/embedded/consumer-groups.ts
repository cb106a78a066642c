import type { IncomingBatch, OutgoingRecord } from '../event-log.port';
import type { EmbeddedConsumer } from './embedded-consumer';
import type { Signal } from './signal';

interface GroupState {
  members: EmbeddedConsumer[];
  generation: number;
  owners: Map<string, EmbeddedConsumer>;
}

const partitionKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/** Consumer-group membership of the embedded log: who owns which partition in which generation. */
export abstract class ConsumerGroups {
  private readonly groups = new Map<string, GroupState>();
  private readonly consumers = new Set<EmbeddedConsumer>();
  abstract readonly changed: Signal;

  protected abstract partitionsOf(topic: string): number;

  /**
   * Its group's current generation: owners change only in a rebalance, which starts a new one, so
   * a member that has seen this generation has its assignment (checked before every poll; the
   * assignment itself builds a key per partition).
   */
  generationOf(member: EmbeddedConsumer): number {
    return this.groups.get(member.groupId)?.generation ?? -1;
  }

  /** The partitions this member owns in its group's current generation. */
  assignmentOf(member: EmbeddedConsumer): { generation: number; partitions: { topic: string; partition: number }[] } {
    const group = this.groups.get(member.groupId);
    const partitions: { topic: string; partition: number }[] = [];
    if (!group) return { generation: -1, partitions };
    for (const topic of member.topics) {
      for (let p = 0; p < this.partitionsOf(topic); p++) {
        if (group.owners.get(partitionKey(topic, p)) === member) partitions.push({ topic, partition: p });
      }
    }
    return { generation: group.generation, partitions };
  }

  /** Whether `member` still owns the batch's partition in `generation`: an ephemeral group's "commit". */
  owns(member: EmbeddedConsumer, generation: number, batch: IncomingBatch, emit?: readonly OutgoingRecord[]): boolean {
    if (emit && emit.length > 0)
      throw new Error(`event log: the ephemeral group ${member.groupId} cannot emit records`);
    const group = this.groups.get(member.groupId);
    return (
      group !== undefined &&
      group.generation === generation &&
      group.owners.get(partitionKey(batch.topic, batch.partition)) === member
    );
  }

  leaveGroup(member: EmbeddedConsumer): void {
    this.consumers.delete(member);
    const group = this.groups.get(member.groupId);
    if (!group) return;
    group.members = group.members.filter((m) => m !== member);
    this.rebalance(group);
  }

  protected join(member: EmbeddedConsumer): void {
    this.consumers.add(member);
    let group = this.groups.get(member.groupId);
    if (!group) {
      group = { members: [], generation: 0, owners: new Map() };
      this.groups.set(member.groupId, group);
    }
    group.members.push(member);
    this.rebalance(group);
  }

  protected async stopConsumers(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.stop()));
  }

  /** Round-robin of each topic's partitions over the members subscribed to it, in join order. */
  private rebalance(group: GroupState): void {
    group.generation += 1;
    group.owners.clear();
    const topics = new Set(group.members.flatMap((m) => m.topics));
    for (const topic of topics) {
      const members = group.members.filter((m) => m.topics.includes(topic));
      const count = this.partitionsOf(topic);
      for (let p = 0; p < count && members.length > 0; p++)
        group.owners.set(partitionKey(topic, p), members[p % members.length]!);
    }
    this.changed.notify();
  }
}
