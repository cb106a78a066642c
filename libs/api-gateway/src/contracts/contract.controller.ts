import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { PrivateEndpoints } from '../auth/private-endpoint';
import { signedQueryDoc as signed } from '../auth/signed-query.doc';
import { CONTRACT_SIDES, CONTRACT_TIME_IN_FORCE, PRICE_TYPES } from './contract-params';
import { ContractService } from './contract.service';

const anyObject = z.record(z.string(), z.unknown());
const newOrderQuery = [
  { name: 'symbol', required: true, description: 'a contract symbol, e.g. BTC-SWAP-USDT (a spot symbol is -1121)' },
  { name: 'side', required: true, description: 'BUY_OPEN / SELL_OPEN open or add to LONG / SHORT; SELL_CLOSE / BUY_CLOSE reduce them', enum: [...CONTRACT_SIDES] },
  { name: 'orderType', description: 'LIMIT (default) or STOP (with triggerPrice: held off the book, its margin locked, until the last price crosses the trigger: BUY_* at or above, SELL_* at or below)', enum: ['LIMIT', 'STOP'] },
  { name: 'triggerPrice', description: 'STOP orders: the last price that releases the order to the book' },
  { name: 'quantity', required: true, description: 'contracts; a CLOSE order at most the position\'s available (-2022)' },
  { name: 'leverage', description: 'required on OPEN orders: 1 to the risk-limit tier\'s maximum (-1130)' },
  { name: 'price', description: 'required for priceType INPUT' },
  { name: 'priceType', description: 'INPUT (default), OPPONENT, QUEUE, OVER (with overPrice), MARKET (an IOC at the last price ± 5%)', enum: [...PRICE_TYPES] },
  { name: 'overPrice', description: 'OVER: added to (BUY) or taken from (SELL) the best opposite price' },
  { name: 'timeInForce', description: 'GTC (default), IOC, FOK, LIMIT_MAKER', enum: [...CONTRACT_TIME_IN_FORCE] },
  { name: 'clientOrderId', required: true, description: 'unique per account among its open contract orders' },
  ...signed,
];
const byId = [
  { name: 'orderId', description: 'one of orderId / clientOrderId', type: 'integer' as const },
  { name: 'clientOrderId', description: 'the order\'s client id' },
  { name: 'orderType', description: 'LIMIT or STOP', enum: ['LIMIT', 'STOP'] },
  ...signed,
];
const listQuery = (cursor: 'orderId' | 'fromId') => [
  { name: 'symbol', description: 'every contract when omitted' },
  { name: cursor, description: cursor === 'orderId' ? 'orders with a lower id' : 'trades with a lower id', type: 'integer' as const },
  { name: 'startTime', description: 'ms', type: 'integer' as const },
  { name: 'endTime', description: 'ms', type: 'integer' as const },
  { name: 'limit', description: 'default 20, max 1000', type: 'integer' as const },
  ...signed,
];

/** Perpetual contract trading (CONTRACTS.md, Orders): the BHEx family's contract API. */
@ApiTags('private: contracts')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/contract/v1')
export class ContractController {
  constructor(
    @Inject(PrivateEndpoints) private readonly endpoints: PrivateEndpoints,
    @Inject(ContractService) private readonly contracts: ContractService,
  ) {}

  @Post('order')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'New contract order; answers with what the engine did (NEW when it rests, FILLED, EXPIRED)', weight: 1, ok: anyObject, query: newOrderQuery })
  place(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'trade', countsAsOrder: true }, (ctx) => this.contracts.place(ctx));
  }

  @Delete('order/cancel')
  @ApiEndpoint({ summary: 'Cancel an open contract order; answers once the engine has canceled it', weight: 1, ok: anyObject, query: byId })
  cancel(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'trade' }, (ctx) => this.contracts.cancel(ctx));
  }

  @Delete('order/batchCancel')
  @ApiEndpoint({ summary: 'Cancel every open contract order (of one symbol when given)', weight: 5, ok: anyObject, query: [{ name: 'symbol', description: 'every contract when omitted' }, ...signed] })
  batchCancel(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'trade' }, (ctx) => this.contracts.batchCancel(ctx));
  }

  @Get('getOrder')
  @ApiEndpoint({ summary: 'A contract order by orderId or clientOrderId', weight: 1, ok: anyObject, query: byId })
  getOrder(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'read' }, (ctx) => this.contracts.getOrder(ctx));
  }

  @Get('openOrders')
  @ApiEndpoint({ summary: 'Open contract orders, newest first', weight: 1, ok: z.array(anyObject), query: listQuery('orderId') })
  openOrders(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'read' }, (ctx) => this.contracts.openOrders(ctx));
  }

  @Get('historyOrders')
  @ApiEndpoint({ summary: 'Final contract orders (FILLED, CANCELED, EXPIRED, REJECTED), newest first', weight: 5, ok: z.array(anyObject), query: listQuery('orderId') })
  historyOrders(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.contracts.historyOrders(ctx));
  }

  @Get('myTrades')
  @ApiEndpoint({ summary: 'The account\'s contract trades with realised PnL (pnl), newest first', weight: 5, ok: z.array(anyObject), query: listQuery('fromId') })
  myTrades(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.contracts.myTrades(ctx));
  }

  @Get('positions')
  @ApiEndpoint({ summary: 'Open positions (one LONG and one SHORT per symbol at most)', weight: 5, ok: z.array(anyObject), query: [{ name: 'symbol', description: 'every contract when omitted' }, ...signed] })
  positions(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.contracts.positions(ctx));
  }

  @Get('account')
  @ApiEndpoint({ summary: 'The contracts account\'s USDT: total, availableMargin, positionMargin, orderMargin', weight: 5, ok: anyObject, query: signed })
  account(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.contracts.account(ctx));
  }

  @Post('modifyMargin')
  @HttpCode(200)
  @ApiEndpoint({
    summary: 'Add (positive amount) or remove (negative) position margin; a removal may not leave less than the initial margin at the mark price (-1131)',
    weight: 1,
    ok: anyObject,
    query: [
      { name: 'symbol', required: true, description: 'a contract symbol' },
      { name: 'side', required: true, description: 'the position', enum: ['LONG', 'SHORT'] },
      { name: 'amount', required: true, description: 'USDT, signed' },
      ...signed,
    ],
  })
  modifyMargin(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'trade' }, (ctx) => this.contracts.modifyMargin(ctx));
  }
}
