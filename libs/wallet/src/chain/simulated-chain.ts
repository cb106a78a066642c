import type { WithdrawalRecord } from '@exchange/contracts';
import type { Logger } from '@exchange/platform';
import type { ChainAdapter } from './chain-adapter.port';

/**
 * The default chain: it accepts every broadcast (once per withdrawal) and reports nothing by
 * itself. Its reports are the operator's: `POST /admin/v1/chain/withdrawals/{id}/confirm|fail`
 * and `POST /admin/v1/deposits` publish the ReportWithdrawal and ReportDeposit commands a real
 * chain watcher would.
 */
export class SimulatedChain implements ChainAdapter {
  private readonly broadcasted = new Set<string>();

  constructor(private readonly logger: Logger) {}

  async broadcast(withdrawal: WithdrawalRecord): Promise<void> {
    if (this.broadcasted.has(withdrawal.withdrawalId)) return;
    this.broadcasted.add(withdrawal.withdrawalId);
    this.logger.info({ withdrawalId: withdrawal.withdrawalId, asset: withdrawal.asset, quantity: withdrawal.quantity }, 'simulated chain: withdrawal broadcast, waiting for the operator to confirm or fail it');
  }
}
