import { hostname } from 'node:os';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HeaderNames, Topics, type WalletCommand, type WalletEvent, type WithdrawalRecord } from '@exchange/contracts';
import type { Consumer, EventLog, IncomingBatch } from '@exchange/messaging';
import { ApiError, CONFIG, type Config, ErrorCode, EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { LedgerClient } from '../ledger-client/ledger-client';
import { ReplyWaiters } from './reply-waiters';

const MAX_PENDING = 10_000;
/** Deposit ids the ledger credited lately, so a wait registered just after the credit still sees it. */
const RECENT_CREDITS = 50_000;

/**
 * Sends commands to the wallet and waits for its journal entry of them, as LedgerClient does for
 * the ledger: every gateway replica reads all of `wallet.events` in a group of its own, from the
 * end. It also follows the ledger's deposit credits, so an operator's deposit is answered once
 * the balance shows it.
 */
@Injectable()
export class WalletClient implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly replies = new ReplyWaiters<WalletEvent>();
  private readonly withdrawals = new ReplyWaiters<WithdrawalRecord>();
  private readonly credits = new ReplyWaiters<true>();
  private readonly recentCredits = new Set<string>();
  private consumer: Consumer | undefined;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(LedgerClient) ledger: LedgerClient,
  ) {
    ledger.onEvent((event) => {
      if (event.type !== 'DepositCredited') return;
      const id = event.payload.depositId;
      this.recentCredits.add(id);
      if (this.recentCredits.size > RECENT_CREDITS) this.recentCredits.delete(this.recentCredits.values().next().value!);
      this.credits.settle(id, true);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = await this.log.consume({
      groupId: `api-gateway.wallet-replies.${this.config.INSTANCE_ID}.${hostname()}.${process.pid}`,
      topics: [Topics.walletEvents.name],
      fromBeginning: false,
      ephemeral: true,
      eachBatch: async (batch) => this.onEvents(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
    for (const waiters of [this.replies, this.withdrawals, this.credits]) waiters.clear();
  }

  /** Publishes the command and resolves with the wallet's event for it; a refusal becomes its ApiError. */
  async execute(command: WalletCommand): Promise<Exclude<WalletEvent, { type: 'WalletCommandRejected' }>> {
    if (this.replies.size >= MAX_PENDING) throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is overloaded; try again shortly.');
    const reply = this.replies.wait(command.id);
    try {
      await this.log.publish([
        {
          topic: Topics.walletCommands.name,
          key: command.payload.userId,
          value: JSON.stringify(command),
          headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type },
        },
      ]);
    } catch (error) {
      reply.cancel();
      this.logger.error({ err: error }, 'publishing a wallet command failed');
      throw new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange cannot take commands right now; try again shortly.');
    }
    const event = await reply.promise;
    if (event.type === 'WalletCommandRejected') throw new ApiError(event.payload.code as never, event.payload.msg);
    return event;
  }

  /** The withdrawal record of the wallet's next event about it (register before causing it). */
  watchWithdrawal(withdrawalId: string): { promise: Promise<WithdrawalRecord>; cancel: () => void } {
    return this.withdrawals.wait(withdrawalId);
  }

  /** Resolves once the ledger has credited the deposit (at once if it did lately). */
  async depositCredited(depositId: string): Promise<void> {
    const wait = this.credits.wait(depositId);
    if (this.recentCredits.has(depositId)) wait.cancel();
    else await wait.promise;
  }

  private onEvents(batch: IncomingBatch): void {
    for (const record of batch.records) {
      let event: WalletEvent;
      try {
        event = JSON.parse(record.value) as WalletEvent;
      } catch {
        continue;
      }
      if ('withdrawal' in event.payload) this.withdrawals.settle(event.payload.withdrawal.withdrawalId, event.payload.withdrawal);
      if (event.payload?.commandId) this.replies.settle(event.payload.commandId, event);
    }
  }
}
