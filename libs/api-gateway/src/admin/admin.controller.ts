import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { AdminTokenGuard } from './admin-token.guard';
import { AdminService } from './admin.service';
import {
  adminAccountSchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  createApiKeyBody,
  createSubAccountBody,
  createUserBody,
  depositBody,
  depositOrderSchema,
  flagsBody,
  parseBody,
  symbolRecordSchema,
  symbolStatusBody,
  subAccountCreatedSchema,
  userCreatedSchema,
} from './admin.schemas';
import { OperatorAuditInterceptor } from './operator-audit.interceptor';

const empty = z.object({}).strict();

/** The operator API (API-DECISIONS.md): JSON in and out, bearer ADMIN_TOKEN, every call audited. */
@ApiTags('operator')
@ApiBearerAuth()
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
@UseInterceptors(OperatorAuditInterceptor)
export class AdminController {
  constructor(@Inject(AdminService) private readonly admin: AdminService) {}

  @Post('users')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Create a user with its main accounts of types 1, 2 and 3', ok: userCreatedSchema })
  createUser(@Body() body: unknown) {
    return this.admin.createUser(parseBody(createUserBody, body).name);
  }

  @Post('users/:userId/sub-accounts')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Create a sub-account (type 1 by default, or 3)', ok: subAccountCreatedSchema })
  createSubAccount(@Param('userId') userId: string, @Body() body: unknown) {
    const { accountName, accountType } = parseBody(createSubAccountBody, body);
    return this.admin.createSubAccount(userId, accountName, accountType ?? 1);
  }

  @Post('api-keys')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Create an API key; the secret is shown only in this answer', ok: apiKeyCreatedSchema })
  createApiKey(@Body() body: unknown) {
    const { accountId, permissions } = parseBody(createApiKeyBody, body);
    return this.admin.createApiKey(accountId, permissions);
  }

  @Get('api-keys')
  @ApiEndpoint({ summary: 'The live API keys of an account, without secrets', ok: apiKeyListSchema, query: [{ name: 'accountId', required: true, description: 'account id' }] })
  listApiKeys(@Query('accountId') accountId: string | undefined) {
    return this.admin.listApiKeys(accountId ?? '');
  }

  @Delete('api-keys/:apiKey')
  @ApiEndpoint({ summary: 'Revoke an API key, at once on every gateway replica', ok: empty })
  revokeApiKey(@Param('apiKey') apiKey: string) {
    return this.admin.revokeApiKey(apiKey);
  }

  @Post('deposits')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Simulated chain: deliver a confirmed deposit to an account', ok: depositOrderSchema })
  deposit(@Body() body: unknown) {
    const { accountId, asset, amount, address, txid } = parseBody(depositBody, body);
    return this.admin.deposit(accountId, asset, amount, address, txid);
  }

  @Get('accounts/:accountId')
  @ApiEndpoint({ summary: 'An account\'s balances and flags', ok: adminAccountSchema })
  account(@Param('accountId') accountId: string) {
    return this.admin.account(accountId);
  }

  @Post('symbols/:symbol/status')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Set a symbol TRADING, HALT or BREAK (a command on its order stream)', ok: symbolRecordSchema })
  setSymbolStatus(@Param('symbol') symbol: string, @Body() body: unknown) {
    return this.admin.setSymbolStatus(symbol, parseBody(symbolStatusBody, body).status);
  }

  @Post('accounts/:accountId/flags')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Set canTrade, canWithdraw, canDeposit (enforced, and reported as T, W, D)', ok: adminAccountSchema })
  setFlags(@Param('accountId') accountId: string, @Body() body: unknown) {
    return this.admin.setFlags(accountId, parseBody(flagsBody, body));
  }
}
