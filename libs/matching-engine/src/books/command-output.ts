import type { OrderEvent, SettlementCommand } from '@exchange/contracts';

type EventOf<T extends OrderEvent['type']> = Extract<OrderEvent, { type: T }>;
type SettlementOf<T extends SettlementCommand['type']> = Extract<SettlementCommand, { type: T }>;

/** The version the engine writes of each message type. */
const currentVersion = {
  OrderAccepted: 2,
  TradeExecuted: 2,
  OrderRested: 2,
  OrderFilled: 2,
  OrderCanceled: 2,
  BookChanged: 2,
  OrderRejected: 1,
  CancelRejected: 1,
  SymbolStatusChanged: 1,
  ClockTicked: 1,
  ApplyOrderOutcome: 2,
  SettleTradeLeg: 2,
} as const satisfies Record<OrderEvent['type'] | SettlementCommand['type'], number>;

/**
 * What one command decided, as contract messages: the order.events of its symbol and the
 * settlement commands for the ledger. Ids and timestamps derive from the command alone (id
 * `<commandId>:<n>` and `<commandId>:s<n>`, ts = the command's ts), never from a clock or an
 * offset, so deciding the same command again yields the same bytes.
 */
export class CommandOutput {
  readonly events: OrderEvent[] = [];
  readonly settlements: SettlementCommand[] = [];

  constructor(
    readonly symbol: string,
    readonly commandId: string,
    readonly ts: number,
  ) {}

  event<T extends OrderEvent['type']>(type: T, payload: Omit<EventOf<T>['payload'], 'symbol' | 'commandId'>): void {
    const v = currentVersion[type];
    // v1 events still name their command in the payload; v2 leave it to the id's prefix.
    const head = v === 1 ? { symbol: this.symbol, commandId: this.commandId } : { symbol: this.symbol };
    const event = {
      type,
      v,
      id: `${this.commandId}:${this.events.length}`,
      ts: this.ts,
      // Copied onto the fresh head rather than spread into a literal: the same keys in the same
      // order, but a spread of payloads of many shapes takes V8's slow path (issue 16's profile).
      payload: Object.assign(head, payload),
    };
    // TypeScript cannot relate a payload generic in T to the union member Extract<…, T> picks.
    this.events.push(event as unknown as EventOf<T>);
  }

  settle<T extends SettlementCommand['type']>(type: T, payload: SettlementOf<T>['payload']): void {
    const command = {
      type,
      v: currentVersion[type],
      id: `${this.commandId}:s${this.settlements.length}`,
      ts: this.ts,
      payload,
    };
    this.settlements.push(command as unknown as SettlementOf<T>);
  }
}
