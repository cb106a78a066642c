import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiEndpoint } from '@exchange/platform';
import { PrivateEndpoints } from '../auth/private-endpoint';
import { signedQueryDoc } from '../auth/signed-query.doc';
import { OrderService } from './order.service';

const signed = signedQueryDoc;
const newOrderQuery = [
  { name: 'symbol', required: true, description: 'e.g. BTCUSDT' },
  { name: 'side', required: true, description: 'BUY or SELL', enum: ['BUY', 'SELL'] },
  { name: 'type', required: true, description: 'LIMIT, MARKET or LIMIT_MAKER', enum: ['LIMIT', 'MARKET', 'LIMIT_MAKER'] },
  { name: 'timeInForce', description: 'GTC (default), IOC, FOK', enum: ['GTC', 'IOC', 'FOK'] },
  { name: 'quantity', required: true, description: 'base quantity; for a MARKET BUY, the quote amount' },
  { name: 'quoteOrderQty', description: 'alias for the quote amount of a MARKET BUY' },
  { name: 'price', description: 'required for LIMIT and LIMIT_MAKER' },
  { name: 'newClientOrderId', description: 'unique per account while open and 24 h after (alias clientOrderId)' },
  { name: 'newOrderRespType', description: 'ACK, RESULT (default) or FULL (adds fills)', enum: ['ACK', 'RESULT', 'FULL'] },
  ...signed,
];
const byId = [
  { name: 'orderId', description: 'one of orderId / origClientOrderId', type: 'integer' as const },
  { name: 'origClientOrderId', description: 'alias clientOrderId' },
  ...signed,
];
const listQuery = [
  { name: 'symbol', description: 'all symbols when omitted' },
  { name: 'orderId', description: 'orders with a lower id', type: 'integer' as const },
  { name: 'startTime', description: 'ms (historyOrders)', type: 'integer' as const },
  { name: 'endTime', description: 'ms (historyOrders)', type: 'integer' as const },
  { name: 'limit', description: 'default 500, max 1000', type: 'integer' as const },
  ...signed,
];
const anyObject = z.record(z.string(), z.unknown());

/** New, test, query and cancel orders; open and history orders; account trades (spec 4.3.1–4.3.7). */
@ApiTags('private: trading')
@ApiHeader({ name: 'X-SERVICE-KEY', required: true, description: 'API key' })
@Controller('openapi/v1')
export class OrderController {
  constructor(
    @Inject(PrivateEndpoints) private readonly endpoints: PrivateEndpoints,
    @Inject(OrderService) private readonly orders: OrderService,
  ) {}

  @Post('order')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'New order; answers with what the engine did (RESULT by default)', weight: 1, ok: anyObject, query: newOrderQuery })
  place(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'trade', countsAsOrder: true }, (ctx) => this.orders.place(ctx));
  }

  @Post('order/test')
  @HttpCode(200)
  @ApiEndpoint({ summary: 'Validate a new order (signature, recvWindow, parameters, filters); nothing is created', weight: 1, ok: z.object({}).strict(), query: newOrderQuery })
  test(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'trade' }, async (ctx) => this.orders.test(ctx));
  }

  @Get('order')
  @ApiEndpoint({ summary: 'Query an order by orderId or client order id', weight: 1, ok: anyObject, query: byId })
  query(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'read' }, (ctx) => this.orders.query(ctx));
  }

  @Delete('order')
  @ApiEndpoint({ summary: 'Cancel an open order; answers once the engine has canceled it', weight: 1, ok: anyObject, query: byId })
  cancel(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'trade' }, (ctx) => this.orders.cancel(ctx));
  }

  @Get('openOrders')
  @ApiEndpoint({ summary: 'Open orders, newest first', weight: 1, ok: z.array(anyObject), query: listQuery })
  openOrders(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 1, permission: 'read' }, (ctx) => this.orders.openOrders(ctx));
  }

  @Get('historyOrders')
  @ApiEndpoint({ summary: 'Final orders (FILLED, CANCELED, REJECTED), newest first', weight: 5, ok: z.array(anyObject), query: listQuery })
  historyOrders(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.orders.historyOrders(ctx));
  }

  @Get('myTrades')
  @ApiEndpoint({
    summary: 'Account trades: fromId → lower ids descending; toId → higher ids ascending; both → between, descending; neither → most recent',
    weight: 5,
    ok: z.array(anyObject),
    query: [
      { name: 'symbol', description: 'all symbols when omitted' },
      { name: 'fromId', description: 'trade id', type: 'integer' },
      { name: 'toId', description: 'trade id', type: 'integer' },
      { name: 'startTime', description: 'ms', type: 'integer' },
      { name: 'endTime', description: 'ms', type: 'integer' },
      { name: 'limit', description: 'default 500, max 1000', type: 'integer' },
      ...signed,
    ],
  })
  myTrades(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.endpoints.run(request, reply, { weight: 5, permission: 'read' }, (ctx) => this.orders.myTrades(ctx));
  }
}
