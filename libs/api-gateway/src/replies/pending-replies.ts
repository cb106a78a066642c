import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { LedgerJournalEvent, WalletEvent } from '@exchange/contracts';
import { CONFIG, type Config } from '@exchange/platform';
import { ReplyWaiters } from './reply-waiters';

/** An event a request may wait for, tagged with the journal it came from (both carry withdrawals). */
export type Reply = { from: 'ledger'; event: LedgerJournalEvent } | { from: 'wallet'; event: WalletEvent };

/**
 * The request a command id descends from. Every service derives the ids of what a command causes
 * from the command's own id (`<id>:0` for an event, `<id>:0:s1` for the engine's settlement of
 * it, `<id>:0/credit` for the wallet's ledger command), so the gateway's command id finds every
 * event of its request, whichever service journaled it.
 */
export function causeOf(commandId: string): string {
  const end = commandId.search(/[:/]/);
  return end < 0 ? commandId : commandId.slice(0, end);
}

export const orderKey = (orderId: string): string => `order:${orderId}`;
export const withdrawalKey = (withdrawalId: string): string => `withdrawal:${withdrawalId}`;

/** The keys an event is routed by: its request, and the order or withdrawal it is about. */
export function routingKeys(reply: Reply): string[] {
  const payload = reply.event.payload as {
    commandId?: string;
    order?: { orderId: string };
    withdrawal?: { withdrawalId: string };
  };
  const keys = payload.commandId === undefined ? [] : [causeOf(payload.commandId)];
  if (payload.order) keys.push(orderKey(payload.order.orderId));
  if (reply.from === 'wallet' && payload.withdrawal) keys.push(withdrawalKey(payload.withdrawal.withdrawalId));
  return keys;
}

/** One pending table per gateway replica, fed by the ledger's and the wallet's events (MAX_PENDING_REQUESTS). */
@Injectable()
export class PendingReplies extends ReplyWaiters<Reply> implements OnApplicationShutdown {
  constructor(@Inject(CONFIG) config: Config) {
    super(config.MAX_PENDING_REQUESTS);
  }

  deliver(reply: Reply): void {
    this.route(routingKeys(reply), reply);
  }

  onApplicationShutdown(): void {
    this.clear();
  }
}
