import { Body, HttpCode, Inject, Post } from '@nestjs/common';
import { z } from 'zod';
import { type IndexPriceFed, type Markets, Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import {
  ApiEndpoint,
  ApiError,
  CLOCK,
  type Clock,
  ErrorCode,
  EVENT_LOG,
  IdGenerator,
  MARKETS,
} from '@exchange/platform';
import { parseBody } from './admin.schemas';
import { OperatorController } from './operator-controller';

/** A positive plain decimal: an index price is never zero, never an exponent, never a float. */
const price = z
  .string()
  .max(40)
  .regex(/^(0|[1-9]\d*)(\.\d+)?$/, 'expected a plain decimal string')
  .refine((text) => /[1-9]/.test(text), 'expected a price above zero');

export const indexPriceBody = z.object({ index: z.string().min(1).max(30), price }).strict();
export const indexPriceFedSchema = z.object({
  index: z.string(),
  price: z.string(),
  contracts: z.array(z.string()),
  time: z.number().int(),
});

/**
 * The index price port's external source (CONTRACTS.md): the operator feeds a price for an index
 * that contracts are configured to take from outside (`indexSource: "external"`); market data's
 * prices decider applies it at this call's time. Audited like every operator call.
 */
@OperatorController()
export class AdminPricesController {
  constructor(
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('index-prices')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Feed an external index price',
    description:
      'Body `{index, price}` (price a plain decimal above zero). For contracts configured with `indexSource: "external"`: -1121 for an index no such contract names. Applied by market data at this call\'s time.',
    ok: indexPriceFedSchema,
  })
  async feed(@Body() body: unknown): Promise<z.infer<typeof indexPriceFedSchema>> {
    const { index, price: text } = parseBody(indexPriceBody, body);
    const contracts = this.markets.contracts
      .filter((c) => c.indexSource === 'external' && c.index === index)
      .map((c) => c.symbol);
    if (contracts.length === 0)
      throw new ApiError(
        ErrorCode.INVALID_SYMBOL,
        `Invalid index '${index.slice(0, 30)}': no contract takes it from an external price.`,
      );
    const message: IndexPriceFed = {
      type: 'IndexPriceFed',
      v: 1,
      id: `index-${this.ids.next()}`,
      ts: this.clock.now(),
      payload: { index, price: text },
    };
    await this.log.publish([{ topic: Topics.indexPrices.name, key: index, value: JSON.stringify(message) }]);
    return { index, price: text, contracts, time: message.ts };
  }
}
