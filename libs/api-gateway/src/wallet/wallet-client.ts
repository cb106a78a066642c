import { hostname } from 'node:os';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  type DepositReported,
  Topics,
  toRecord,
  type WalletCommand,
  parseWalletEvent,
  type WalletEvent,
  type WithdrawalRecord,
} from '@exchange/contracts';
import type { Consumer, EventLog, IncomingBatch } from '@exchange/messaging';
import { ApiError, CONFIG, type Config, ErrorCode, EVENT_LOG, LOGGER, type Logger } from '@exchange/platform';
import { PendingReplies, type Reply, withdrawalKey } from '../replies/pending-replies';
import type { Gather, ReplyWait } from '../replies/reply-waiters';

type Answer = Exclude<WalletEvent, { type: 'WalletCommandRejected' }>;

/**
 * Sends commands to the wallet and waits for its journal entry of them, as LedgerClient does for
 * the ledger and in the same pending table: every gateway replica reads all of `wallet.events` in
 * a group of its own, from the end.
 */
@Injectable()
export class WalletClient implements OnApplicationBootstrap, OnApplicationShutdown {
  private consumer: Consumer | undefined;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(PendingReplies) private readonly replies: PendingReplies,
  ) {}

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
  }

  /** Publishes the command and resolves with the wallet's event for it; a refusal becomes its ApiError. */
  execute(command: WalletCommand): Promise<Answer> {
    return this.request(command, (reply) =>
      reply.from === 'wallet' && reply.event.payload.commandId === command.id ? answerOf(reply.event) : undefined,
    );
  }

  /**
   * Reports a deposit and resolves with the wallet's record of it once, when this report made it
   * creditable, the ledger has credited it too (the credit descends from this command's id).
   */
  reportDeposit(command: WalletCommand): Promise<DepositReported> {
    let reported: DepositReported | undefined;
    let credited = false;
    return this.request(command, (reply) => {
      if (reply.from === 'ledger') credited ||= reply.event.type === 'DepositCredited';
      else if (reply.event.payload.commandId === command.id) {
        const answer = answerOf(reply.event);
        if (answer.type !== 'DepositReported') throw new Error(`wallet answered ${command.type} with ${answer.type}`);
        reported = answer;
      }
      return reported && (credited || !reported.payload.credited) ? reported : undefined;
    });
  }

  /** The withdrawal record of the wallet's next event about it, whatever request caused it. */
  watchWithdrawal(watchId: string, withdrawalId: string): ReplyWait<WithdrawalRecord> {
    return this.replies.wait(
      watchId,
      (reply) =>
        reply.from === 'wallet' && 'withdrawal' in reply.event.payload ? reply.event.payload.withdrawal : undefined,
      {
        alsoKeys: [withdrawalKey(withdrawalId)],
      },
    );
  }

  private async request<V>(command: WalletCommand, gather: Gather<Reply, V>): Promise<V> {
    const reply = this.replies.wait(command.id, gather);
    try {
      await this.log.publish([toRecord(Topics.walletCommands, command)]);
    } catch (error) {
      reply.cancel();
      this.logger.error({ err: error }, 'publishing a wallet command failed');
      throw new ApiError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'The exchange cannot take commands right now; try again shortly.',
      );
    }
    return reply.promise;
  }

  private onEvents(batch: IncomingBatch): void {
    for (const record of batch.records) {
      const event = parseWalletEvent(record.value);
      if (event) this.replies.deliver({ from: 'wallet', event });
      else
        this.logger.error(
          { topic: record.topic, partition: record.partition, offset: record.offset },
          'not a wallet event: skipped',
        );
    }
  }
}

function answerOf(event: WalletEvent): Answer {
  if (event.type === 'WalletCommandRejected') throw new ApiError(event.payload.code as never, event.payload.msg);
  return event;
}
