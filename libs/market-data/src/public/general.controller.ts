import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Markets } from '@exchange/contracts';
import { CLOCK, type Clock, CONFIG, type Config, MARKETS, RequestParams } from '@exchange/platform';
import { type BrokerInfo, brokerInfoTypes, buildBrokerInfo } from './broker-info';
import { rateLimitEntries } from './rate-limit-entries';

/** The general public endpoints of the openapi family: ping, time, pairs, brokerInfo. */
@Controller('openapi/v1')
export class GeneralController {
  constructor(
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('ping')
  ping(): Record<string, never> {
    return {};
  }

  @Get('time')
  time(): { serverTime: number } {
    return { serverTime: this.clock.now() };
  }

  @Get('pairs')
  pairs(): { symbol: string; quoteToken: string; baseToken: string }[] {
    return this.markets.symbols.map((s) => ({ symbol: s.symbol, quoteToken: s.quoteAsset, baseToken: s.baseAsset }));
  }

  @Get('brokerInfo')
  brokerInfo(@Req() request: FastifyRequest): BrokerInfo {
    return this.answerBrokerInfo(request);
  }

  /** The wider family's clients ask for the same document by this name. */
  @Get('exchangeInfo')
  exchangeInfo(@Req() request: FastifyRequest): BrokerInfo {
    return this.answerBrokerInfo(request);
  }

  private answerBrokerInfo(request: FastifyRequest): BrokerInfo {
    const type = RequestParams.fromUrl(request.url).optionalEnum('type', brokerInfoTypes);
    return buildBrokerInfo(this.markets, rateLimitEntries(this.config), this.clock.now(), () => undefined, type);
  }
}
