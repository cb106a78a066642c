import { ledgerReplay } from './ledger/ledger-rebuild';
import { matchingEngineReplay } from './matching-engine/engine-rebuild';
import type { ReplayTarget } from './replay-target';

/**
 * The services `npm run replay` can rebuild. A service joins by implementing ReplayTarget next
 * to these (its journal folded into a fresh copy, checks against the live state, an optional
 * switch) and adding it here: market-data (read models from order.events), user-stream,
 * wallet (withdrawal state machines from its journal).
 */
export const replayTargets: readonly ReplayTarget[] = [ledgerReplay, matchingEngineReplay];
