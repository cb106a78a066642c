import { patchKafkajsCoordinatorCache } from './kafkajs-coordinator-cache';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Cluster = require('kafkajs/src/cluster') as { prototype: object };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createRetry = require('kafkajs/src/retry') as (options: object) => unknown;

const TRANSACTION = 1;

interface FakeBroker {
  nodeId: number;
  endTxn(): Promise<string>;
}

interface FakeCluster {
  findGroupCoordinator(args: { groupId: string; coordinatorType?: number }): Promise<FakeBroker>;
}

/**
 * kafkajs's Cluster with its broker-facing parts replaced: `coordinator` says which node a
 * FindCoordinator request names now, `lookups` counts those requests, and a node's endTxn fails
 * with NOT_COORDINATOR when it is not the coordinator (as a broker answers after a move).
 */
function cluster() {
  const state = { coordinator: 1, lookups: 0 };
  const broker = (nodeId: number): FakeBroker => ({
    nodeId,
    endTxn: async () => {
      if (nodeId !== state.coordinator)
        throw Object.assign(new Error('not the coordinator'), { type: 'NOT_COORDINATOR', retriable: true });
      return `ended by ${nodeId}`;
    },
  });
  const brokers = new Map([1, 2].map((id) => [id, broker(id)]));
  const fake = Object.assign(Object.create(Cluster.prototype) as FakeCluster, {
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    retrier: createRetry({ retries: 0 }),
    brokerPool: { findBroker: async ({ nodeId }: { nodeId: number }) => brokers.get(nodeId)! },
    refreshMetadata: async () => undefined,
    findGroupCoordinatorMetadata: async () => {
      state.lookups++;
      return { coordinator: { nodeId: state.coordinator } };
    },
  });
  return { fake, state };
}

describe('kafkajs coordinator cache', () => {
  beforeAll(() => {
    expect(patchKafkajsCoordinatorCache()).toBe(true);
  });

  it('looks a coordinator up once for the requests that follow', async () => {
    const { fake, state } = cluster();
    for (let step = 0; step < 3; step++) {
      const coordinator = await fake.findGroupCoordinator({ groupId: 'g.t.0', coordinatorType: TRANSACTION });
      expect(await coordinator.endTxn()).toBe('ended by 1');
    }
    expect(state.lookups).toBe(1);
  });

  it('keeps transaction and group coordinators of the same id apart', async () => {
    const { fake, state } = cluster();
    await fake.findGroupCoordinator({ groupId: 'same', coordinatorType: TRANSACTION });
    await fake.findGroupCoordinator({ groupId: 'same' });
    expect(state.lookups).toBe(2);
  });

  it('after a request the remembered coordinator refused, looks the coordinator up again', async () => {
    const { fake, state } = cluster();
    const before = await fake.findGroupCoordinator({ groupId: 'g.t.0', coordinatorType: TRANSACTION });
    state.coordinator = 2;
    await expect(before.endTxn()).rejects.toMatchObject({ type: 'NOT_COORDINATOR' });
    // What kafkajs does next (a retry, an abort) asks for the coordinator again: it must get the new one.
    const after = await fake.findGroupCoordinator({ groupId: 'g.t.0', coordinatorType: TRANSACTION });
    expect(after.nodeId).toBe(2);
    expect(await after.endTxn()).toBe('ended by 2');
    expect(state.lookups).toBe(2);
  });
});
