/**
 * kafkajs 2.2.4 asks the cluster which broker coordinates a transactional id or a group before
 * every coordinator request (`cluster.findGroupCoordinator`: one FindCoordinator request each
 * time). A transactional step asks four times (AddPartitionsToTxn, AddOffsetsToTxn,
 * TxnOffsetCommit, EndTxn) for an answer that changes only when a coordinator moves, and an
 * admin's fetchOffsets once per call. On this machine each request costs the sender the broker's
 * TCP work as well, so the lookups were a third of a step's requests.
 *
 * The answer is kept per cluster (every kafkajs client has its own) and per (coordinator type,
 * id). It is dropped as soon as any request sent to the remembered coordinator through it fails,
 * whatever the error (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, a
 * timeout, a lost connection): the caller sees the error only after the entry is gone, so
 * kafkajs's own retries (sendOffsets after a stale coordinator, a produce's AddPartitionsToTxn)
 * and an abort after it look the coordinator up afresh, exactly as they do without the cache. A
 * request to a broker that is no longer the coordinator is refused and changes nothing, so a stale
 * entry costs one failed request, never an effect. Patched only on the version whose code this was
 * read from; kafkajs-coordinator-cache.spec.ts fails on another so that someone looks again.
 */
const PATCHED_VERSION = '2.2.4';
const patched = Symbol.for('exchange.kafkajs.coordinatorCachePatched');

interface KafkajsBroker {
  nodeId: number;
}

interface LookupArgs {
  groupId: string;
  coordinatorType?: number;
}

interface ClusterPrototype {
  findGroupCoordinator(this: object, args: LookupArgs): Promise<KafkajsBroker>;
  findBroker(this: object, args: { nodeId: number }): Promise<KafkajsBroker>;
  [patched]?: true;
}

/** Per cluster: `<coordinatorType>:<id>` → the coordinator's node id. */
const coordinators = new WeakMap<object, Map<string, number>>();

/** Applies the cache to kafkajs's Cluster once per process; true when it is in place. */
export function patchKafkajsCoordinatorCache(): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== PATCHED_VERSION) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Cluster = require('kafkajs/src/cluster') as { prototype: ClusterPrototype };
  const prototype = Cluster.prototype;
  if (prototype[patched]) return true;
  const lookUp = prototype.findGroupCoordinator;
  prototype.findGroupCoordinator = async function (this: object, args: LookupArgs) {
    let known = coordinators.get(this);
    if (!known) coordinators.set(this, (known = new Map()));
    const key = `${args.coordinatorType ?? 0}:${args.groupId}`;
    const forget = () => known.delete(key);
    const nodeId = known.get(key);
    if (nodeId !== undefined) {
      try {
        return forgettingOnError(await prototype.findBroker.call(this, { nodeId }), forget);
      } catch {
        forget();
      }
    }
    const broker = await lookUp.call(this, args);
    known.set(key, broker.nodeId);
    return forgettingOnError(broker, forget);
  };
  prototype[patched] = true;
  return true;
}

/**
 * The broker as its callers use it, except that a failed request (a rejected promise or a thrown
 * error from any of its methods) first forgets the coordinator. Everything else, property writes
 * included, goes to the broker itself.
 */
function forgettingOnError<T extends object>(broker: T, forget: () => void): T {
  return new Proxy(broker, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          forget();
          throw error;
        }
        if (result instanceof Promise)
          return result.catch((error: unknown) => {
            forget();
            throw error;
          });
        return result;
      };
    },
  });
}
