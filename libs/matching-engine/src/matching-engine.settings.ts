/** The consumer group of the engine on order.commands: one active owner per partition. */
export const MATCHING_ENGINE_GROUP = 'matching-engine';

export const MATCHING_ENGINE_SETTINGS = Symbol('MATCHING_ENGINE_SETTINGS');

export interface MatchingEngineSettings {
  /**
   * A partition's books are snapshotted when a batch crosses a multiple of this many input
   * offsets, in the same atomic step as that batch: it bounds the replay after a restart.
   */
  snapshotEvery: number;
  /**
   * How many recent command ids each book remembers to drop repeats. It is part of the books'
   * state, so changing it changes which late repeats are dropped: change it only with care.
   */
  recentCommandIds: number;
}

export const defaultMatchingEngineSettings: MatchingEngineSettings = { snapshotEvery: 1000, recentCommandIds: 10_000 };
