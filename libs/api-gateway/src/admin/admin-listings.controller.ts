import { Get, Inject, Query } from '@nestjs/common';
import { z } from 'zod';
import { Topics } from '@exchange/contracts';
import type { EventLog } from '@exchange/messaging';
import { ApiEndpoint, ApiError, EVENT_LOG } from '@exchange/platform';
import { LedgerReader } from '@exchange/ledger-query';
import { WalletReader } from '@exchange/wallet-query';
import { adminDepositSchema, adminDepositView, withdrawalOrderSchema, withdrawalView } from '../wallet/wallet-views';
import { OperatorController } from './operator-controller';

const limitParam = { name: 'limit', description: '1–1000, default 100' };

export const userListSchema = z.array(
  z.object({
    userId: z.string(),
    name: z.string(),
    created: z.number().int(),
    accounts: z.array(
      z.object({
        accountId: z.string(),
        userId: z.string(),
        accountType: z.number().int(),
        accountIndex: z.number().int(),
        accountName: z.string(),
        canTrade: z.boolean(),
        canWithdraw: z.boolean(),
        canDeposit: z.boolean(),
      }),
    ),
  }),
);

export const auditRecordSchema = z.object({
  offset: z.number().int(),
  ts: z.number().int(),
  actor: z.string(),
  correlationId: z.string(),
  ip: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  code: z.number().int().optional(),
});

function limitOf(text: string | undefined): number {
  if (text === undefined) return 100;
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit < 1 || limit > 1000) throw ApiError.invalid('limit', 'expected 1 to 1000');
  return limit;
}

/**
 * The operator API's listings, which the console needs and the CLI can use: users, withdrawals
 * waiting for an audit, the latest deposits, and the tail of the audit trail. Read-only; reading
 * is audited like every operator call.
 */
@OperatorController()
export class AdminListingsController {
  constructor(
    @Inject(LedgerReader) private readonly ledger: LedgerReader,
    @Inject(WalletReader) private readonly wallet: WalletReader,
    @Inject(EVENT_LOG) private readonly log: EventLog,
  ) {}

  @Get('users')
  @ApiEndpoint({
    summary: 'Users, newest first, with their accounts (main and sub-accounts)',
    ok: userListSchema,
    query: [limitParam],
  })
  async users(@Query('limit') limit: string | undefined) {
    return this.ledger.users(limitOf(limit));
  }

  @Get('withdrawals')
  @ApiEndpoint({
    summary: 'Withdrawals waiting for an operator (status 1 or 3), oldest first, of every account',
    ok: z.array(withdrawalOrderSchema),
    query: [limitParam],
  })
  async withdrawals(@Query('limit') limit: string | undefined) {
    return (await this.wallet.awaitingAudit(limitOf(limit))).map(withdrawalView);
  }

  @Get('deposits')
  @ApiEndpoint({
    summary: 'The latest deposits of every account, confirming or credited, newest first',
    ok: z.array(adminDepositSchema),
    query: [limitParam],
  })
  async deposits(@Query('limit') limit: string | undefined) {
    return (await this.wallet.latestDeposits(limitOf(limit))).map(adminDepositView);
  }

  @Get('audit')
  @ApiEndpoint({
    summary: 'The latest records of the operator audit trail (operator.audit), newest first',
    ok: z.array(auditRecordSchema),
    query: [limitParam],
  })
  async audit(@Query('limit') limit: string | undefined) {
    const count = limitOf(limit);
    const topic = Topics.operatorAudit.name;
    const [end = 0] = await this.log.endOffsets(topic);
    const records: z.infer<typeof auditRecordSchema>[] = [];
    await this.log.read(
      topic,
      0,
      Math.max(0, end - count),
      async (batch) => {
        for (const r of batch) {
          const { ts, payload } = JSON.parse(r.value) as {
            ts: number;
            payload: Omit<z.infer<typeof auditRecordSchema>, 'offset' | 'ts'>;
          };
          // A client that hung up before its record was written left no address (Fastify's request.ip is then undefined).
          records.push({
            offset: r.offset,
            ts,
            actor: payload.actor,
            correlationId: payload.correlationId,
            ip: payload.ip ?? '',
            method: payload.method,
            path: payload.path,
            status: payload.status,
            ...(payload.code === undefined ? {} : { code: payload.code }),
          });
        }
      },
      end,
    );
    return records.reverse();
  }
}
