import type { DistributedExchange, ServiceProcess } from './distributed-exchange';

/**
 * kill -9 of `victims`, then `whileDown` (e.g. the rest of a burst, sent only now so the kill lands
 * mid-burst by construction), then the restart of every victim killed, whatever happened in
 * between: a failed assertion must never leave the tests after it a dead service.
 */
export async function whileKilled<T>(
  exchange: DistributedExchange,
  victims: ServiceProcess[],
  whileDown: () => T | Promise<T>,
): Promise<T> {
  const killed: ServiceProcess[] = [];
  try {
    for (const victim of victims) {
      killed.push(victim);
      await exchange.kill(victim);
    }
    return await whileDown();
  } finally {
    for (const victim of killed) await exchange.restart(victim);
  }
}
