import type { WithdrawalRecord } from '@exchange/contracts';
import type { Logger } from '@exchange/platform';
import { LRUCache } from 'lru-cache';
import type { ChainAdapter } from './chain-adapter.port';

/**
 * The default chain: it accepts every broadcast (once per withdrawal) and reports nothing by
 * itself. Its reports are the operator's: `POST /admin/v1/chain/withdrawals/{id}/confirm|fail`
 * and `POST /admin/v1/deposits` publish the ReportWithdrawal and ReportDeposit commands a real
 * chain watcher would. It remembers the newest 10,000 broadcasts only to log each once: a
 * withdrawal broadcast again after that is logged again, as after a restart.
 */
export class SimulatedChain implements ChainAdapter {
  private readonly broadcasted = new LRUCache<string, true>({ max: 10_000 });

  constructor(private readonly logger: Logger) {}

  async broadcast(withdrawal: WithdrawalRecord): Promise<void> {
    if (this.broadcasted.has(withdrawal.withdrawalId)) return;
    this.broadcasted.set(withdrawal.withdrawalId, true);
    this.logger.info(
      { withdrawalId: withdrawal.withdrawalId, asset: withdrawal.asset, quantity: withdrawal.quantity },
      'simulated chain: withdrawal broadcast, waiting for the operator to confirm or fail it',
    );
  }
}
