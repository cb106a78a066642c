import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Markets } from '@exchange/contracts';
import {
  ApiEndpoint,
  chargePublicWeight,
  CLOCK,
  type Clock,
  CONFIG,
  type Config,
  MARKETS,
  RATE_LIMITER,
  type RateLimiter,
  RequestParams,
} from '@exchange/platform';
import { MarketReader } from '../reading/market-reader';
import { type BrokerInfo, brokerInfoTypes, buildBrokerInfo } from './broker-info';
import { brokerInfoSchema, pairsSchema, pingSchema, timeSchema } from './general.schemas';
import { rateLimitEntries } from './rate-limit-entries';

const brokerInfoDoc = {
  summary: 'Trading rules, symbols, filters and the rate limits in force',
  weight: 0,
  ok: brokerInfoSchema,
  query: [
    {
      name: 'type',
      description: 'token, options or contracts; omitted: all trading information',
      enum: brokerInfoTypes,
    },
  ],
};

/** The general public endpoints of the openapi family: ping, time, pairs, brokerInfo. */
@ApiTags('public: general')
@Controller('openapi/v1')
export class GeneralController {
  constructor(
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    private readonly reader: MarketReader,
  ) {}

  @Get('ping')
  @ApiEndpoint({ summary: 'Test connectivity', weight: 0, ok: pingSchema })
  async ping(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, never>> {
    await chargePublicWeight(this.limiter, request, reply, 0);
    return {};
  }

  @Get('time')
  @ApiEndpoint({ summary: 'Server time in ms since the epoch', weight: 0, ok: timeSchema })
  async time(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ serverTime: number }> {
    await chargePublicWeight(this.limiter, request, reply, 0);
    return { serverTime: this.clock.now() };
  }

  @Get('pairs')
  @ApiEndpoint({ summary: 'Trading pairs', weight: 1, ok: pairsSchema })
  async pairs(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ symbol: string; quoteToken: string; baseToken: string }[]> {
    await chargePublicWeight(this.limiter, request, reply, 1);
    return this.markets.symbols.map((s) => ({ symbol: s.symbol, quoteToken: s.quoteAsset, baseToken: s.baseAsset }));
  }

  @Get('brokerInfo')
  @ApiEndpoint(brokerInfoDoc)
  brokerInfo(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<BrokerInfo> {
    return this.answerBrokerInfo(request, reply);
  }

  @Get('exchangeInfo')
  @ApiEndpoint({ ...brokerInfoDoc, summary: 'Alias of brokerInfo, the name the wider family asks for' })
  exchangeInfo(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<BrokerInfo> {
    return this.answerBrokerInfo(request, reply);
  }

  private async answerBrokerInfo(request: FastifyRequest, reply: FastifyReply): Promise<BrokerInfo> {
    await chargePublicWeight(this.limiter, request, reply, 0);
    const type = RequestParams.fromUrl(request.url).optionalEnum('type', brokerInfoTypes);
    const statusOf = (symbol: string) => this.reader.fold.symbols.get(symbol)?.status;
    return buildBrokerInfo(
      this.markets,
      {
        rateLimits: rateLimitEntries(this.config),
        serverTime: this.clock.now(),
        statusOf,
        exchangeId: this.config.EXCHANGE_ID,
      },
      type,
    );
  }
}
