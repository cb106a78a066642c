import { Controller, Inject } from '@nestjs/common';
import {
  contractPriceMessageSchema,
  type Markets,
  parseOrderEventValue,
  Topics,
  toPartitionRecord,
} from '@exchange/contracts';
import {
  type BatchOutcome,
  ConsumeBatches,
  decodeOnce,
  type IncomingBatch,
  type OutgoingRecord,
} from '@exchange/messaging';
import { LOGGER, type Logger, MARKETS } from '@exchange/platform';
import { partitionCommandOf, stopCommandsOf } from '../domain/contracts/price-commands';
import { LEDGER_PARTITIONS } from './ledger.tokens';

export const PRICE_RELAY_GROUP = 'ledger-price-relay';
export const STOP_RELAY_GROUP = 'ledger-stop-relay';

/**
 * Prices into the ledger (ARCHITECTURE rule 1: the ledger decides from one ordered input). Each
 * mark price and funding fix of market.contract-prices becomes a command on every partition of
 * ledger.commands, in the consumed batch's atomic step, so each partition decides liquidations
 * and funding in order with its trades. Ids are derived (see partitionCommandOf): a repeat is
 * skipped by the ledger's processed ids, and deciding either command twice changes nothing.
 */
@Controller()
export class ContractPriceRelay {
  constructor(
    @Inject(LEDGER_PARTITIONS) private readonly partitions: number,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @ConsumeBatches({ topic: Topics.contractPrices.name, groupId: PRICE_RELAY_GROUP, fromBeginning: true })
  onPrices(batch: IncomingBatch): BatchOutcome {
    const emit: OutgoingRecord[] = [];
    for (const record of batch.records) {
      const parsed = contractPriceMessageSchema.safeParse(safeJson(record.value));
      if (!parsed.success) {
        this.logger.warn(
          { partition: record.partition, offset: record.offset },
          'ledger: a contract-prices record that is no price message was skipped',
        );
        continue;
      }
      // A symbol this configuration does not know (an old record) has no positions to act on.
      if (this.markets.contract(parsed.data.payload.symbol) === undefined) continue;
      for (let partition = 0; partition < this.partitions; partition++) {
        const command = partitionCommandOf(parsed.data, partition, this.markets.version);
        emit.push(commandRecord(command, partition));
      }
    }
    return { emit };
  }

  /**
   * STOP orders wait for the contract's last price: each batch of order.events gives every
   * partition a TriggerContractStops at the lowest and highest price a contract traded at in it
   * (nothing when it traded no contract), in this group's own atomic step.
   */
  @ConsumeBatches({ topic: Topics.orderEvents.name, groupId: STOP_RELAY_GROUP, fromBeginning: true })
  onTrades(batch: IncomingBatch): BatchOutcome {
    const prices = new Map<string, { prices: string[]; offset: number; ts: number }>();
    for (const record of batch.records) {
      const event = decodeOnce(record, parseOrderEventValue);
      if (event?.type !== 'TradeExecuted' || this.markets.contract(event.payload.symbol) === undefined) continue;
      const seen = prices.get(event.payload.symbol) ?? { prices: [], offset: record.offset, ts: event.ts };
      seen.prices.push(event.payload.price);
      prices.set(event.payload.symbol, seen);
    }
    const emit: OutgoingRecord[] = [];
    for (const [symbol, seen] of prices) {
      for (let partition = 0; partition < this.partitions; partition++) {
        for (const command of stopCommandsOf(
          symbol,
          seen.prices,
          { partition: batch.partition, offset: seen.offset, ts: seen.ts },
          partition,
        ))
          emit.push(commandRecord(command, partition));
      }
    }
    return { emit };
  }
}

function commandRecord(
  command: { id: string; type: string; payload: { symbol: string } },
  partition: number,
): OutgoingRecord {
  return toPartitionRecord(Topics.ledgerCommands, command, partition, command.payload.symbol);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
