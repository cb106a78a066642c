import { Body, HttpCode, Inject, Post } from '@nestjs/common';
import Decimal from 'decimal.js';
import { z } from 'zod';
import { type Markets, Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import {
  ApiEndpoint,
  ApiError,
  CLOCK,
  type Clock,
  CorrelationId,
  EVENT_LOG,
  IdGenerator,
  MARKETS,
} from '@exchange/platform';
import { LedgerClient } from '../ledger-client/ledger-client';
import { parseBody } from './admin.schemas';
import { OperatorController } from './operator-controller';

export const seedBody = z
  .object({
    amount: z
      .string()
      .max(40)
      .regex(/^(0|[1-9]\d*)(\.\d+)?$/, 'expected a plain decimal string'),
  })
  .strict();
export const seededSchema = z.object({
  seedId: z.string(),
  amount: z.string(),
  shares: z.array(z.object({ partition: z.number().int(), amount: z.string(), balance: z.string() })),
});

/**
 * The operator seeds the insurance fund with USDT. The fund is one account per ledger partition
 * (each decides its liquidations alone), so the amount is split evenly over them, rounded down to
 * USDT's precision, the first partition taking what rounding leaves; one SeedInsuranceFund per
 * partition, each answered by the ledger. Audited like every operator call.
 */
@OperatorController()
export class AdminInsuranceController {
  constructor(
    @Inject(LedgerClient) private readonly ledger: LedgerClient,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('insurance-fund')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Seed the insurance fund',
    description:
      "Body `{amount}` (USDT, a plain decimal above zero at USDT's precision), split evenly over the ledger partitions' fund accounts.",
    ok: seededSchema,
  })
  async seed(@Body() body: unknown, @CorrelationId() correlationId: string): Promise<z.infer<typeof seededSchema>> {
    const { amount: text } = parseBody(seedBody, body);
    const places = this.markets.asset('USDT')?.precision ?? 8;
    const amount = new Decimal(text);
    if (amount.lte(0) || amount.decimalPlaces() > places)
      throw ApiError.invalid('amount', `must be above zero with at most ${places} decimals`);
    const partitions = await this.log.partitionCount(Topics.ledgerCommands.name);
    const share = amount.div(partitions).toDecimalPlaces(places, Decimal.ROUND_DOWN);
    const seedId = this.ids.next();
    const shares = await Promise.all(
      Array.from({ length: partitions }, async (_, partition) => {
        const part = partition === 0 ? amount.minus(share.times(partitions - 1)) : share;
        const command = {
          type: 'SeedInsuranceFund' as const,
          v: 1 as const,
          id: `seed-${seedId}-${partition}`,
          ts: this.clock.now(),
          payload: { seedId, amount: part.toFixed() },
        };
        if (part.isZero()) return { partition, amount: '0', balance: '0' };
        const seeded = await this.ledger.execute(command, 'InsuranceFundSeeded', { partition, correlationId });
        return { partition, amount: seeded.payload.amount, balance: seeded.payload.balance.free };
      }),
    );
    return { seedId, amount: amount.toFixed(), shares };
  }
}
