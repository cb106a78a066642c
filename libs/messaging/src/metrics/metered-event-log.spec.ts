import { Metrics } from '@exchange/platform';
import type { ConsumerOptions, EventLog, IncomingBatch } from '../event-log.port';
import { MeteredEventLog } from './metered-event-log';

/** An event log whose end and committed offsets the test sets, and whose consumer the test feeds. */
function fakeLog(): {
  log: EventLog;
  ends: number[];
  committed: number[];
  deliver(batch: Omit<IncomingBatch, 'topic'>): Promise<void>;
} {
  const state = { ends: [0, 0], committed: [0, 0], handler: undefined as ConsumerOptions['eachBatch'] | undefined };
  const log = {
    endOffsets: async () => [...state.ends],
    committedOffsets: async () => [...state.committed],
    consume: async (options: ConsumerOptions) => {
      state.handler = options.eachBatch;
      return { stop: async () => undefined };
    },
  } as unknown as EventLog;
  return {
    log,
    ends: state.ends,
    committed: state.committed,
    deliver: async (batch) => void (await state.handler!({ topic: 't', ...batch })),
  };
}

describe('the metered event log', () => {
  it("reports a group's lag from what this process consumed, and from the group's commits once a rebalance gave the partition to another replica", async () => {
    const inner = fakeLog();
    const metered = new MeteredEventLog(inner.log, new Metrics('test'));
    await metered.consume({ groupId: 'g', topics: ['t'], eachBatch: async () => undefined });
    expect(await metered.lags()).toEqual([]);

    inner.ends.splice(0, 2, 10, 4);
    await inner.deliver({ partition: 0, records: [], nextOffset: 8 });
    expect(await metered.lags()).toEqual([{ group: 'g', topic: 't', partition: 0, lag: 2 }]);

    // Partition 0 now belongs to another replica, which consumed and committed up to the end.
    inner.ends.splice(0, 1, 85);
    inner.committed.splice(0, 2, 85, 4);
    expect(await metered.lags()).toEqual([
      { group: 'g', topic: 't', partition: 0, lag: 0 },
      { group: 'g', topic: 't', partition: 1, lag: 0 },
    ]);
  });
});
