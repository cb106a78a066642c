import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Markets } from '@exchange/contracts';
import { ApiEndpoint, CLOCK, type Clock, CONFIG, type Config, MARKETS, RequestParams } from '@exchange/platform';
import { type BrokerInfo, brokerInfoTypes, buildBrokerInfo } from './broker-info';
import { brokerInfoSchema, pairsSchema, pingSchema, timeSchema } from './general.schemas';
import { rateLimitEntries } from './rate-limit-entries';

const brokerInfoDoc = {
  summary: 'Trading rules, symbols, filters and the rate limits in force',
  weight: 0,
  ok: brokerInfoSchema,
  query: [{ name: 'type', description: 'token, options or contracts; omitted: all trading information', enum: brokerInfoTypes }],
};

/** The general public endpoints of the openapi family: ping, time, pairs, brokerInfo. */
@ApiTags('public: general')
@Controller('openapi/v1')
export class GeneralController {
  constructor(
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('ping')
  @ApiEndpoint({ summary: 'Test connectivity', weight: 0, ok: pingSchema })
  ping(): Record<string, never> {
    return {};
  }

  @Get('time')
  @ApiEndpoint({ summary: 'Server time in ms since the epoch', weight: 0, ok: timeSchema })
  time(): { serverTime: number } {
    return { serverTime: this.clock.now() };
  }

  @Get('pairs')
  @ApiEndpoint({ summary: 'Trading pairs', weight: 1, ok: pairsSchema })
  pairs(): { symbol: string; quoteToken: string; baseToken: string }[] {
    return this.markets.symbols.map((s) => ({ symbol: s.symbol, quoteToken: s.quoteAsset, baseToken: s.baseAsset }));
  }

  @Get('brokerInfo')
  @ApiEndpoint(brokerInfoDoc)
  brokerInfo(@Req() request: FastifyRequest): BrokerInfo {
    return this.answerBrokerInfo(request);
  }

  @Get('exchangeInfo')
  @ApiEndpoint({ ...brokerInfoDoc, summary: 'Alias of brokerInfo, the name the wider family asks for' })
  exchangeInfo(@Req() request: FastifyRequest): BrokerInfo {
    return this.answerBrokerInfo(request);
  }

  private answerBrokerInfo(request: FastifyRequest): BrokerInfo {
    const type = RequestParams.fromUrl(request.url).optionalEnum('type', brokerInfoTypes);
    return buildBrokerInfo(this.markets, rateLimitEntries(this.config), this.clock.now(), () => undefined, type);
  }
}
