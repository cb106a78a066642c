import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { PrivateEndpoints } from '../auth/private-endpoint';
import { signedQueryDoc } from '../auth/signed-query.doc';
import { type AccountView, AccountService, type FlowView, type SubAccountView } from './account.service';
import { accountSchema, balanceFlowSchema, subAccountSchema, transferResultSchema } from './account.schemas';

const signed = signedQueryDoc;

const flowQuery = [
  { name: 'accountType', description: '1, 2 or 3 (main-account keys)', enum: ['1', '2', '3'] },
  { name: 'accountIndex', description: 'index of the account of that type; 0 = main', type: 'integer' as const },
  { name: 'tokenId', description: 'asset' },
  { name: 'fromFlowId', description: 'entries with ids below it, newest first', type: 'integer' as const },
  { name: 'endFlowId', description: 'entries with ids above it, newest first', type: 'integer' as const },
  { name: 'startTime', description: 'ms', type: 'integer' as const },
  { name: 'endTime', description: 'ms', type: 'integer' as const },
  { name: 'limit', description: 'default 500, max 500', type: 'integer' as const },
  ...signed,
];

/** Balances, sub-accounts, balance flow and transfers (spec 4.3.8, 4.3.12, 4.3.13, 4.3.15). */
@ApiTags('private: account')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1')
export class AccountController {
  constructor(
    @Inject(PrivateEndpoints) private readonly endpoints: PrivateEndpoints,
    @Inject(AccountService) private readonly accounts: AccountService,
  ) {}

  @Get('account')
  @ApiEndpoint({ summary: 'Balances of the key\'s account, every configured asset', weight: 5, ok: accountSchema, query: signed })
  account(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountView> {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.accounts.account(ctx));
  }

  @Post('subAccount/query')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'The main account and its sub-accounts (types 1 and 3)', weight: 5, ok: z.array(subAccountSchema), query: signed })
  subAccounts(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SubAccountView[]> {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.accounts.subAccounts(ctx));
  }

  @Post('balance_flow')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Balance flow, newest first', weight: 5, ok: z.array(balanceFlowSchema), query: flowQuery })
  balanceFlowPost(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<FlowView[]> {
    return this.balanceFlow(request, reply);
  }

  @Get('balance_flow')
  @ApiEndpoint({ summary: 'Balance flow, newest first (GET alias)', weight: 5, ok: z.array(balanceFlowSchema), query: flowQuery })
  balanceFlowGet(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<FlowView[]> {
    return this.balanceFlow(request, reply);
  }

  @Post('transfer')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Move funds between the user\'s main account and its sub-accounts',
    description: 'Either side must be the main token account; a sub-account key may only send to its main account and names no account parameter.',
    weight: 1,
    ok: transferResultSchema,
    query: [
      { name: 'fromAccountType', description: '1, 2 or 3; default 1 (main-account keys)', enum: ['1', '2', '3'] },
      { name: 'fromAccountIndex', description: 'default 0', type: 'integer' },
      { name: 'toAccountType', description: '1, 2 or 3; required for main-account keys', enum: ['1', '2', '3'] },
      { name: 'toAccountIndex', description: 'default 0', type: 'integer' },
      { name: 'tokenId', required: true, description: 'asset' },
      { name: 'amount', required: true, description: 'decimal string, within the asset precision' },
      ...signed,
    ],
  })
  transfer(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ success: string }> {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'trade' }, (ctx) => this.accounts.transfer(ctx));
  }

  private balanceFlow(request: FastifyRequest, reply: FastifyReply): Promise<FlowView[]> {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.accounts.balanceFlow(ctx));
  }
}
