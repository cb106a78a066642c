import { randomBytes } from 'node:crypto';
import { KafkaJSProtocolError } from 'kafkajs';
import { realServiceAddress } from '../../../../test/support/real-services';
import { waitFor } from '../../../../test/support/wait-for';
import type { Consumer, IncomingRecord } from '../event-log.port';
import { KafkaEventLog } from './kafka-event-log';

const brokers = realServiceAddress('KAFKA_BROKERS', 'transactional steps across a coordinator move on Apache Kafka');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Broker = require('kafkajs/src/broker') as { prototype: Record<string, (...args: never[]) => Promise<unknown>> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as {
  createErrorFromCode(code: number): Error & { type: string; code: number; retriable: boolean };
};
const NOT_COORDINATOR = 16;
const TRANSACTION = 1;
const GROUP = 0;

/**
 * A single broker coordinates everything, so a coordinator move is played by the broker's client
 * side: once `move(key)` is called, every coordinator request for that transactional id or group
 * is answered NOT_COORDINATOR until the client has asked FindCoordinator for it again, as the
 * broker that was the coordinator answers until the client learns where it went.
 */
class CoordinatorMoves {
  private readonly moved = new Set<string>();
  private readonly lost = new Set<string>();
  private readonly spies: jest.SpyInstance[] = [];

  install(): void {
    const refuse = (key: string) => {
      if (this.moved.has(key)) throw new KafkaJSProtocolError(createErrorFromCode(NOT_COORDINATOR));
    };
    const byTransaction = (method: string, after?: (args: { transactionalId: string }) => void) =>
      this.wrap(method, (args: { transactionalId: string }) => refuse(`${TRANSACTION}:${args.transactionalId}`), after);
    byTransaction('addPartitionsToTxn');
    byTransaction('addOffsetsToTxn');
    byTransaction('endTxn', (args) => {
      if (this.lost.delete(args.transactionalId)) throw new KafkaJSProtocolError(createErrorFromCode(NOT_COORDINATOR));
    });
    this.wrap('txnOffsetCommit', (args: { groupId: string }) => refuse(`${GROUP}:${args.groupId}`));
    this.wrap('findGroupCoordinator', (args: { groupId: string; coordinatorType?: number }) => {
      this.moved.delete(`${args.coordinatorType ?? GROUP}:${args.groupId}`);
    });
  }

  /** The next EndTxn of `transactionalId` goes through, but its answer is lost: the client sees NOT_COORDINATOR. */
  loseNextAnswer(transactionalId: string): void {
    this.lost.add(transactionalId);
  }

  move(coordinatorType: number, id: string): void {
    this.moved.add(`${coordinatorType}:${id}`);
  }

  restore(): void {
    for (const spy of this.spies) spy.mockRestore();
  }

  private wrap<A>(method: string, before: (args: A) => void, after: (args: A) => void = () => undefined): void {
    const original = Broker.prototype[method]!;
    this.spies.push(
      jest.spyOn(Broker.prototype, method).mockImplementation(async function (this: unknown, args: A) {
        before(args);
        const answer = await (original as (a: A) => Promise<unknown>).call(this, args);
        after(args);
        return answer;
      } as never),
    );
  }
}

/**
 * A consume → produce step is one Kafka transaction whose coordinators (the transactional id's
 * and the group's) the event log remembers between steps. When one moves, the step meets
 * NOT_COORDINATOR: the step must be retried against the new coordinator, and its records and
 * offsets must land exactly once.
 */
(brokers ? describe : describe.skip)('Kafka transactional steps when a coordinator moves', () => {
  const moves = new CoordinatorMoves();
  let log: KafkaEventLog;
  const consumers: Consumer[] = [];

  beforeAll(() => moves.install());
  beforeEach(() => {
    log = new KafkaEventLog({
      brokers: brokers!.split(','),
      clientId: `coordinator-move-${randomBytes(4).toString('hex')}`,
    });
  });
  afterEach(async () => {
    for (const c of consumers.splice(0)) await c.stop();
    await log.close();
  });
  afterAll(() => moves.restore());

  /** A group copying `input` to `output` in transactions; `beforeCommit` runs inside each step. */
  async function copying(beforeCommit: (offset: number) => void) {
    const run = randomBytes(4).toString('hex');
    const input = { name: `move-in-${run}`, partitions: 1, key: 'userId' as const, config: {} };
    const output = { name: `move-out-${run}`, partitions: 1, key: 'userId' as const, config: {} };
    const groupId = `copier-${run}`;
    await log.createTopics([input, output]);
    let handled = 0;
    consumers.push(
      await log.consume({
        groupId,
        topics: [input.name],
        fromBeginning: true,
        eachBatch: async (batch) => ({
          emit: batch.records.map((r) => ({ topic: output.name, key: r.key, value: r.value })),
        }),
        hooks: {
          beforeCommit: (batch) => {
            beforeCommit(batch.records[0]!.offset);
            handled = batch.nextOffset;
          },
        },
      }),
    );
    const send = async (value: string) => {
      await log.publish([{ topic: input.name, key: 'k', value }]);
    };
    const stepped = (count: number) => waitFor(async () => handled >= count, `${count} records through a step`, 60_000);
    return { input, output, groupId, transactionalId: `${groupId}.${input.name}.0`, send, stepped };
  }

  /** What a read_committed reader of `topic` sees, once `groupId` has committed all of `input`. */
  async function landed(groupId: string, input: string, topic: string, count: number): Promise<string[]> {
    await waitFor(
      async () => (await log.committedOffsets(groupId, input))[0] === (await log.endOffsets(input))[0],
      'the copier committed all its input',
      60_000,
    );
    const seen: IncomingRecord[] = [];
    await waitFor(
      async () => {
        seen.length = 0;
        await log.read(topic, 0, 0, async (records) => void seen.push(...records));
        return seen.length >= count;
      },
      'the copies to be readable',
      60_000,
    );
    return seen.map((r) => r.value);
  }

  it('retries a step whose coordinators moved since the last step against the new ones, exactly once', async () => {
    const copier = await copying(() => undefined);
    await copier.send('1');
    await copier.stepped(1);
    await copier.send('2');
    await copier.stepped(2);
    // Between steps: the next one starts with AddPartitionsToTxn at the coordinator it remembers.
    moves.move(TRANSACTION, copier.transactionalId);
    moves.move(GROUP, copier.groupId);
    await copier.send('3');
    await copier.send('4');
    await copier.stepped(4);
    expect(await landed(copier.groupId, copier.input.name, copier.output.name, 4)).toEqual(['1', '2', '3', '4']);
  }, 180_000);

  /**
   * Three records copied one step each; `disturb` runs inside the second step, after its records
   * and offsets are in the transaction and before its EndTxn. What a reader sees once all of the
   * input is committed, and whether the second step was disturbed.
   */
  async function copyThreeDisturbingTheSecond(disturb: (transactionalId: string) => void) {
    let disturbAt: number | undefined;
    const copier = await copying((offset) => {
      if (offset === disturbAt) {
        disturbAt = undefined;
        disturb(copier.transactionalId);
      }
    });
    await copier.send('1');
    await copier.stepped(1);
    disturbAt = 1;
    await copier.send('2');
    await copier.stepped(2);
    await copier.send('3');
    await copier.stepped(3);
    const disturbed = disturbAt === undefined;
    return { disturbed, copies: await landed(copier.groupId, copier.input.name, copier.output.name, 3) };
  }

  it('aborts and retries a step whose commit the old transaction coordinator refused, exactly once', async () => {
    // Its EndTxn goes to a coordinator that has moved.
    const { disturbed, copies } = await copyThreeDisturbingTheSecond((id) => moves.move(TRANSACTION, id));
    expect(disturbed).toBe(true);
    expect(copies).toEqual(['1', '2', '3']);
  }, 180_000);

  it('does not apply again a step whose commit went through but whose answer was lost', async () => {
    const { disturbed, copies } = await copyThreeDisturbingTheSecond((id) => moves.loseNextAnswer(id));
    expect(disturbed).toBe(true);
    expect(copies).toEqual(['1', '2', '3']);
  }, 180_000);
});
