import { type DynamicModule, Module } from '@nestjs/common';
import { type Markets, Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { EVENT_LOG, MARKETS } from '@exchange/platform';
import { SymbolEngines } from './books/symbol-engines';
import {
  defaultMatchingEngineSettings,
  MATCHING_ENGINE_SETTINGS,
  type MatchingEngineSettings,
} from './matching-engine.settings';
import { ClockTicker } from './processing/clock-ticker';
import { EngineSnapshotStore } from './processing/engine-snapshot-store';
import { OrderCommandProcessor } from './processing/order-command.processor';
import { PartitionRecovery } from './processing/partition-recovery';

const symbolEnginesProvider = {
  provide: SymbolEngines,
  inject: [MARKETS, EVENT_LOG, MATCHING_ENGINE_SETTINGS],
  useFactory: async (markets: Markets, log: EventLog, settings: MatchingEngineSettings) =>
    new SymbolEngines(markets, await log.partitionCount(Topics.orderCommands.name), settings.recentCommandIds),
};

/** The order books: a fold over order.commands that writes order.events and the ledger's settlement commands. */
@Module({
  controllers: [OrderCommandProcessor],
  providers: [
    { provide: MATCHING_ENGINE_SETTINGS, useValue: defaultMatchingEngineSettings },
    symbolEnginesProvider,
    EngineSnapshotStore,
    PartitionRecovery,
    ClockTicker,
  ],
  exports: [SymbolEngines],
})
export class MatchingEngineModule {
  /** The module with other settings (a shorter snapshot interval, say); the plain class uses the defaults. */
  static withSettings(settings: Partial<MatchingEngineSettings>): DynamicModule {
    return {
      module: MatchingEngineModule,
      providers: [{ provide: MATCHING_ENGINE_SETTINGS, useValue: { ...defaultMatchingEngineSettings, ...settings } }],
    };
  }
}
