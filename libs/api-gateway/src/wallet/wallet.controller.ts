import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { PrivateEndpoints } from '../auth/private-endpoint';
import { signedQueryDoc } from '../auth/signed-query.doc';
import { WalletService } from './wallet.service';
import { depositOrderViewSchema, withdrawalOrderSchema } from './wallet-views';

const timeRange = [
  { name: 'startTime', description: 'ms', type: 'integer' as const },
  { name: 'endTime', description: 'ms', type: 'integer' as const },
];
const limit = { name: 'limit', description: 'default 500, max 1000', type: 'integer' as const };

/** Withdraw, withdrawal queries and deposit orders (spec 4.3.9–4.3.11, 4.3.14). */
@ApiTags('private: wallet')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1')
export class WalletController {
  constructor(
    @Inject(PrivateEndpoints) private readonly endpoints: PrivateEndpoints,
    @Inject(WalletService) private readonly wallet: WalletService,
  ) {}

  @Post('withdraw')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Withdraw to an address of the account\'s address book; funds are held until the withdrawal is final',
    description: 'The fee is charged on top of withdrawalQuantity. The same clientOrderId with the same parameters answers the same withdrawal; with others it is -1141. Needs the withdraw permission.',
    weight: 5,
    ok: withdrawalOrderSchema,
    query: [
      { name: 'tokenId', required: true, description: 'e.g. BTC' },
      { name: 'clientOrderId', required: true, description: 'unique per account, to prevent a double withdrawal' },
      { name: 'address', required: true, description: 'an address of the account\'s withdrawal address book' },
      { name: 'addressExt', description: 'tag / memo' },
      { name: 'withdrawalQuantity', required: true, description: 'decimal, at least the asset\'s minimum' },
      { name: 'chainType', description: 'USDT: OMNI (default), ERC20, TRC20; ignored for other assets' },
      ...signedQueryDoc,
    ],
  })
  withdraw(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'withdraw' }, (ctx) => this.wallet.withdraw(ctx));
  }

  @Get('withdrawalOrders')
  @ApiEndpoint({
    summary: 'Withdrawal orders, newest first; fromId gives ids below it',
    weight: 1,
    ok: z.array(withdrawalOrderSchema),
    query: [{ name: 'token', description: 'all tokens when omitted' }, ...timeRange, { name: 'fromId', description: 'withdrawal order id', type: 'integer' }, limit, ...signedQueryDoc],
  })
  withdrawalOrders(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    // The spec shows no weight for withdrawalOrders: 1 (API-DECISIONS.md, Limits).
    return this.endpoints.run(request, reply, { weight: 1, permission: 'read' }, (ctx) => this.wallet.withdrawalOrders(ctx));
  }

  @Get('withdraw/detail')
  @ApiEndpoint({
    summary: 'One withdrawal order, by orderId or clientOrderId',
    weight: 1,
    ok: withdrawalOrderSchema,
    query: [{ name: 'orderId', description: 'one of orderId / clientOrderId', type: 'integer' }, { name: 'clientOrderId', description: 'the withdrawal\'s client id' }, ...signedQueryDoc],
  })
  detail(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'read' }, (ctx) => this.wallet.detail(ctx));
  }

  @Get('depositOrders')
  @ApiEndpoint({
    summary: 'Credited deposits: fromId gives ids above it, oldest first; otherwise the most recent, newest first',
    weight: 5,
    ok: z.array(depositOrderViewSchema),
    query: [...timeRange, { name: 'fromId', description: 'deposit order id', type: 'integer' }, limit, ...signedQueryDoc],
  })
  depositOrders(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.wallet.depositOrders(ctx));
  }
}
