import { Controller, Inject } from '@nestjs/common';
import { contractPriceMessageSchema, HeaderNames, type Markets, Topics } from '@exchange/contracts';
import { type BatchOutcome, ConsumeBatches, type IncomingBatch, type OutgoingRecord } from '@exchange/messaging';
import { LOGGER, type Logger, MARKETS } from '@exchange/platform';
import { partitionCommandOf } from '../domain/contracts/price-commands';
import { LedgerStore } from '../persistence/ledger-store';

export const PRICE_RELAY_GROUP = 'ledger-price-relay';

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
    private readonly store: LedgerStore,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @ConsumeBatches({ topic: Topics.contractPrices.name, groupId: PRICE_RELAY_GROUP, fromBeginning: true })
  onPrices(batch: IncomingBatch): BatchOutcome {
    const emit: OutgoingRecord[] = [];
    for (const record of batch.records) {
      const parsed = contractPriceMessageSchema.safeParse(safeJson(record.value));
      if (!parsed.success) {
        this.logger.warn({ partition: record.partition, offset: record.offset }, 'ledger: a contract-prices record that is no price message was skipped');
        continue;
      }
      // A symbol this configuration does not know (an old record) has no positions to act on.
      if (this.markets.contract(parsed.data.payload.symbol) === undefined) continue;
      for (let partition = 0; partition < this.store.partitions; partition++) {
        const command = partitionCommandOf(parsed.data, partition, this.markets.version);
        emit.push({ topic: Topics.ledgerCommands.name, key: command.payload.symbol, partition, value: JSON.stringify(command), headers: { [HeaderNames.messageId]: command.id, [HeaderNames.messageType]: command.type } });
      }
    }
    return { emit };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
