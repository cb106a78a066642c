import type { WithdrawalRecord } from '@exchange/contracts';

/**
 * Where a blockchain plugs into the wallet. The wallet calls `broadcast` after it committed a
 * withdrawal's move to PROCESSING (5), and again after a restart for every withdrawal still
 * processing, so an implementation must be idempotent by withdrawalId (look the transaction up
 * before sending; sign with a nonce derived from the id). Everything the chain says comes back
 * as commands on `wallet.commands`, keyed by the userId, never as calls into the wallet:
 *
 * - `ReportWithdrawal` MINED {txid, confirmations} as the transaction gathers confirmations
 *   (the wallet moves 5→8, and 8→6 once the asset's count is reached), or FAILED {reason}.
 * - `ReportDeposit` for each transfer to one of the exchange's deposit addresses, with its
 *   confirmations, as often as the chain likes: the wallet credits it once.
 *
 * Going through the log keeps the wallet a fold of its one input partition: a chain report is
 * decided in order with the operator's commands and replays the same.
 */
export interface ChainAdapter {
  broadcast(withdrawal: WithdrawalRecord): Promise<void>;
}

export const CHAIN_ADAPTER = Symbol('CHAIN_ADAPTER');
