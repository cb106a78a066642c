import { z } from 'zod';
import { parseMessage } from '../envelope/message';
import type { DepositRecord, WithdrawalAddressEntry, WithdrawalRecord, WithdrawalTransition } from './wallet-records';
import {
  depositRecordSchema,
  withdrawalAddressEntrySchema,
  withdrawalRecordSchema,
  withdrawalTransitionSchema,
} from './wallet-records.schema';

/**
 * Events on `wallet.events`, keyed by userId: the wallet's journal, one event per command it
 * decided. Every withdrawal event carries the whole record after it and the transitions it made
 * (automatic approval records 1→3 and 3→5 in one event), so projections upsert and the gateway
 * answers from one event.
 */
export interface WalletEventBase<TType extends string, TPayload> {
  type: TType;
  v: 1;
  /** `<commandId>:0`: stable across redelivery of the command. */
  id: string;
  ts: number;
  payload: TPayload & { userId: string; commandId: string };
}

export type WithdrawalTracked = WalletEventBase<
  'WithdrawalTracked',
  { withdrawal: WithdrawalRecord; transitions: WithdrawalTransition[] }
>;
/** An audit approval, a rejection, or the chain's report moved the withdrawal on. */
export type WithdrawalAdvanced = WalletEventBase<
  'WithdrawalAdvanced',
  { withdrawal: WithdrawalRecord; transitions: WithdrawalTransition[] }
>;
/** More confirmations of a mined withdrawal, not yet enough: no status change. */
export type WithdrawalConfirmationsUpdated = WalletEventBase<
  'WithdrawalConfirmationsUpdated',
  { withdrawal: WithdrawalRecord }
>;
/** A deposit seen (again): credited is true on the one report that credited it. */
export type DepositReported = WalletEventBase<
  'DepositReported',
  { deposit: DepositRecord; credited: boolean; repeated: boolean }
>;
export type WithdrawalAddressAdded = WalletEventBase<'WithdrawalAddressAdded', { entry: WithdrawalAddressEntry }>;
export type WithdrawalAddressRemoved = WalletEventBase<'WithdrawalAddressRemoved', { entry: WithdrawalAddressEntry }>;
/** A command the wallet refused (an audit of a withdrawal that is not waiting for one, …), with the family's code. */
export type WalletCommandRejected = WalletEventBase<
  'WalletCommandRejected',
  { commandType: string; code: number; msg: string }
>;

export type WalletEvent =
  | WithdrawalTracked
  | WithdrawalAdvanced
  | WithdrawalConfirmationsUpdated
  | DepositReported
  | WithdrawalAddressAdded
  | WithdrawalAddressRemoved
  | WalletCommandRejected;
export type WalletEventType = WalletEvent['type'];

/** `{type, v: 1, id, ts, payload}` of a wallet event: the payload's own fields plus userId and commandId. */
function walletEventV1<T extends WalletEventType, P extends z.ZodRawShape>(type: T, payload: P) {
  return z.object({
    type: z.literal(type),
    v: z.literal(1),
    id: z.string().min(1),
    ts: z.number().int().nonnegative(),
    payload: z.object({ ...payload, userId: z.string().min(1), commandId: z.string().min(1) }),
  });
}

const transitions = z.array(withdrawalTransitionSchema);

/** Every wallet event, checked where it enters a consumer (the type says what a producer may write). */
export const walletEventSchema: z.ZodType<WalletEvent> = z.discriminatedUnion('type', [
  walletEventV1('WithdrawalTracked', { withdrawal: withdrawalRecordSchema, transitions }),
  walletEventV1('WithdrawalAdvanced', { withdrawal: withdrawalRecordSchema, transitions }),
  walletEventV1('WithdrawalConfirmationsUpdated', { withdrawal: withdrawalRecordSchema }),
  walletEventV1('DepositReported', { deposit: depositRecordSchema, credited: z.boolean(), repeated: z.boolean() }),
  walletEventV1('WithdrawalAddressAdded', { entry: withdrawalAddressEntrySchema }),
  walletEventV1('WithdrawalAddressRemoved', { entry: withdrawalAddressEntrySchema }),
  walletEventV1('WalletCommandRejected', { commandType: z.string(), code: z.number().int(), msg: z.string() }),
]);

/** A record's value as a wallet event, or undefined when it is not JSON or not one. */
export function parseWalletEvent(value: string): WalletEvent | undefined {
  return parseMessage(walletEventSchema, value);
}
