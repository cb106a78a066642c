import { Body, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { z } from 'zod';
import { ApiEndpoint, CorrelationId } from '@exchange/platform';
import { apiKeyParam, idParam, intParam, symbolParam } from './admin-params';
import { AdminService } from './admin.service';
import {
  adminAccountSchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  createApiKeyBody,
  createSubAccountBody,
  createUserBody,
  depositBody,
  flagsBody,
  parseBody,
  symbolRecordSchema,
  symbolStatusBody,
  subAccountCreatedSchema,
  userCreatedSchema,
  depositAddressBody,
  depositAddressSchema,
  withdrawalAddressBody,
  reasonBody,
  chainConfirmBody,
} from './admin.schemas';
import { WalletAdminService } from '../wallet/wallet-admin.service';
import { addressEntrySchema, adminDepositSchema, withdrawalOrderSchema } from '../wallet/wallet-views';
import { OperatorController } from './operator-controller';
import { deadLetterSchema, DeadLetterService } from './dead-letters.service';

const empty = z.object({}).strict();

/**
 * The operator API (API-DECISIONS.md): JSON in and out, bearer ADMIN_TOKEN, every call audited.
 * Path and query ids are checked here (admin-params.ts), bodies by parseBody, before any lookup.
 */
@OperatorController()
export class AdminController {
  constructor(
    @Inject(AdminService) private readonly admin: AdminService,
    @Inject(WalletAdminService) private readonly wallet: WalletAdminService,
    @Inject(DeadLetterService) private readonly deadLetters: DeadLetterService,
  ) {}

  @Post('users')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Create a user with its main accounts of types 1, 2 and 3', ok: userCreatedSchema })
  createUser(@Body() body: unknown, @CorrelationId() correlationId: string) {
    return this.admin.createUser(parseBody(createUserBody, body).name, correlationId);
  }

  @Post('users/:userId/sub-accounts')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Create a sub-account (type 1 by default, or 3)', ok: subAccountCreatedSchema })
  createSubAccount(@Param('userId') userId: string, @Body() body: unknown, @CorrelationId() correlationId: string) {
    const { accountName, accountType } = parseBody(createSubAccountBody, body);
    return this.admin.createSubAccount(idParam('userId', userId), accountName, accountType ?? 1, correlationId);
  }

  @Post('api-keys')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Create an API key; the secret is shown only in this answer', ok: apiKeyCreatedSchema })
  createApiKey(@Body() body: unknown, @CorrelationId() correlationId: string) {
    const { accountId, permissions } = parseBody(createApiKeyBody, body);
    return this.admin.createApiKey(accountId, permissions, correlationId);
  }

  @Get('api-keys')
  @ApiEndpoint({
    summary: 'The live API keys of an account, without secrets',
    ok: apiKeyListSchema,
    query: [{ name: 'accountId', required: true, description: 'account id' }],
  })
  listApiKeys(@Query('accountId') accountId: string | undefined) {
    return this.admin.listApiKeys(idParam('accountId', accountId));
  }

  @Delete('api-keys/:apiKey')
  @ApiEndpoint({ summary: 'Revoke an API key, at once on every gateway replica', ok: empty })
  revokeApiKey(@Param('apiKey') apiKey: string, @CorrelationId() correlationId: string) {
    return this.admin.revokeApiKey(apiKeyParam(apiKey), correlationId);
  }

  @Post('deposits')
  @HttpCode(200)
  @ApiEndpoint({
    summary:
      "Simulated chain: a deposit to the account's address, with all the asset's confirmations unless fewer are given",
    description:
      "Credited once, when the confirmations reach the asset's count (a repeat of the same txid changes nothing); answered once the balance shows it.",
    ok: adminDepositSchema,
  })
  deposit(@Body() body: unknown) {
    const { accountId, asset, amount, ...options } = parseBody(depositBody, body);
    return this.admin.deposit(accountId, asset, amount, options);
  }

  @Post('deposit-addresses')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'The deposit address of an account for a token (and chain)', ok: depositAddressSchema })
  depositAddress(@Body() body: unknown) {
    const { accountId, tokenId, chainType } = parseBody(depositAddressBody, body);
    return this.wallet.depositAddress(accountId, tokenId, chainType);
  }

  @Post('withdrawal-addresses')
  @HttpCode(200)
  @ApiEndpoint({ summary: "Add an address to an account's withdrawal address book", ok: addressEntrySchema })
  addWithdrawalAddress(@Body() body: unknown) {
    return this.wallet.addAddress(parseBody(withdrawalAddressBody, body));
  }

  @Get('withdrawal-addresses')
  @ApiEndpoint({
    summary: "An account's withdrawal address book",
    ok: z.array(addressEntrySchema),
    query: [{ name: 'accountId', required: true, description: 'account id' }],
  })
  listWithdrawalAddresses(@Query('accountId') accountId: string | undefined) {
    return this.wallet.listAddresses(idParam('accountId', accountId));
  }

  @Delete('withdrawal-addresses/:id')
  @ApiEndpoint({ summary: 'Remove an address-book entry', ok: empty })
  removeWithdrawalAddress(@Param('id') id: string) {
    return this.wallet.removeAddress(idParam('id', id));
  }

  @Post('withdrawals/:orderId/approve')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Pass the audit the withdrawal waits at (broker 1→3, platform 3→5)',
    ok: withdrawalOrderSchema,
  })
  approveWithdrawal(@Param('orderId') orderId: string, @Body() body: unknown) {
    parseBody(empty, body);
    return this.wallet.approve(idParam('orderId', orderId));
  }

  @Post('withdrawals/:orderId/reject')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Reject at the audit the withdrawal waits at (1→2, 3→4); the hold is released',
    ok: withdrawalOrderSchema,
  })
  rejectWithdrawal(@Param('orderId') orderId: string, @Body() body: unknown) {
    return this.wallet.reject(idParam('orderId', orderId), parseBody(reasonBody, body).reason);
  }

  @Post('chain/withdrawals/:orderId/confirm')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Simulated chain: the withdrawal is mined with its confirmations (all by default: success)',
    ok: withdrawalOrderSchema,
  })
  confirmOnChain(@Param('orderId') orderId: string, @Body() body: unknown) {
    return this.wallet.chainConfirm(idParam('orderId', orderId), parseBody(chainConfirmBody, body).confirmations);
  }

  @Post('chain/withdrawals/:orderId/fail')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Simulated chain: the withdrawal failed (5→7 or 8→7); the hold is released',
    ok: withdrawalOrderSchema,
  })
  failOnChain(@Param('orderId') orderId: string, @Body() body: unknown) {
    return this.wallet.chainFail(idParam('orderId', orderId), parseBody(reasonBody, body).reason);
  }

  @Get('accounts/:accountId')
  @ApiEndpoint({ summary: "An account's balances and flags", ok: adminAccountSchema })
  account(@Param('accountId') accountId: string) {
    return this.admin.account(idParam('accountId', accountId));
  }

  @Post('symbols/:symbol/status')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Set a symbol TRADING, HALT or BREAK (a command on its order stream)',
    ok: symbolRecordSchema,
  })
  setSymbolStatus(@Param('symbol') symbol: string, @Body() body: unknown) {
    return this.admin.setSymbolStatus(symbolParam(symbol), parseBody(symbolStatusBody, body).status);
  }

  @Post('accounts/:accountId/flags')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Set canTrade, canWithdraw, canDeposit (enforced, and reported as T, W, D)',
    ok: adminAccountSchema,
  })
  setFlags(@Param('accountId') accountId: string, @Body() body: unknown, @CorrelationId() correlationId: string) {
    return this.admin.setFlags(idParam('accountId', accountId), parseBody(flagsBody, body), correlationId);
  }

  @Get('dead-letters')
  @ApiEndpoint({
    summary: 'Records the ledger or the wallet could neither apply nor reject, oldest first (README, Poison records)',
    ok: z.array(deadLetterSchema),
    query: [
      { name: 'fromId', description: 'the first id to list (default 0)', type: 'integer' },
      { name: 'limit', description: '1 to 500 (default 100)', type: 'integer' },
    ],
  })
  listDeadLetters(@Query('fromId') fromId: string | undefined, @Query('limit') limit: string | undefined) {
    return this.deadLetters.list(
      intParam('fromId', fromId, 0, Number.MAX_SAFE_INTEGER) ?? 0,
      intParam('limit', limit, 1, 500) ?? 100,
    );
  }

  @Post('dead-letters/:id/redrive')
  @HttpCode(200)
  @ApiEndpoint({
    summary: "Publish a dead letter's command again to the topic it was parked from (applied once if it now can be)",
    ok: deadLetterSchema,
  })
  redriveDeadLetter(@Param('id') id: string) {
    return this.deadLetters.redrive(intParam('id', id, 0, Number.MAX_SAFE_INTEGER) ?? -1);
  }
}
