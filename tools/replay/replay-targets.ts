import { ledgerReplay } from './ledger/ledger-rebuild';
import { marketDataReplay } from './market-data/market-data-rebuild';
import { matchingEngineReplay } from './matching-engine/engine-rebuild';
import type { ReplayTarget } from './replay-target';
import { userStreamReplay } from './user-stream/user-stream-rebuild';
import { walletReplay } from './wallet/wallet-rebuild';

/**
 * The services `npm run replay` can rebuild, one per service that keeps state: the ledger, the
 * matching engine's books, market data's history, the wallet and the user streams. A service
 * joins by implementing ReplayTarget next to these (its journal folded into a fresh copy, checks
 * against the live state, an optional switch) and adding it here.
 */
export const replayTargets: readonly ReplayTarget[] = [
  ledgerReplay,
  matchingEngineReplay,
  marketDataReplay,
  walletReplay,
  userStreamReplay,
];
