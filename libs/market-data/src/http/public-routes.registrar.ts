import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Markets } from '@exchange/contracts';
import {
  ApiError,
  chargePublicWeight,
  CLOCK,
  type Clock,
  ErrorCode,
  LOGGER,
  type Logger,
  MARKETS,
  RATE_LIMITER,
  type RateLimiter,
  toApiError,
} from '@exchange/platform';
import { MarketReader } from '../reading/market-reader';
import { MarketAnswers } from '../views/market-answers';
import { type PublicRoute, publicRoutes, type RouteContext } from './public-routes';
import { ParsedQueries } from './parsed-queries';
import { QuoteParams, v2SymbolIndex } from './quote-params';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Registers the public market routes on the app's Fastify instance, beside Nest's controllers:
 * parameters are checked, the weight charged per client IP, and the cached JSON bytes written as
 * they are. Every failure is a `{code, msg}` answer; until the replica has caught up, -1016.
 */
@Injectable()
export class PublicRoutesRegistrar implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly reader: MarketReader,
    private readonly answers: MarketAnswers,
    @Inject(MARKETS) private readonly markets: Markets,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const { fold } = this.reader;
    const ctx: RouteContext = {
      answers: this.answers,
      markets: this.markets,
      clock: this.clock,
      isReady: () => this.reader.isReady,
      statusOf: (symbol) => fold.symbols.get(symbol)!.status,
    };
    const v2Symbols = v2SymbolIndex(this.markets);
    const queries = new ParsedQueries();
    for (const route of publicRoutes) {
      fastify.get(route.path, (request, reply) =>
        this.serve(route, ctx, request, reply, () => new QuoteParams(queries.of(request.url), fold, v2Symbols)),
      );
    }
  }

  private async serve(
    route: PublicRoute,
    ctx: RouteContext,
    request: FastifyRequest,
    reply: FastifyReply,
    paramsOf: () => QuoteParams,
  ): Promise<void> {
    let charged = false;
    try {
      const answer = route.answer(paramsOf(), ctx);
      charged = true;
      await chargePublicWeight(this.limiter, request, reply, answer.weight);
      if (!this.reader.isReady && route.path !== '/api/v2/health')
        throw new ApiError(
          ErrorCode.SERVICE_UNAVAILABLE,
          'Market data is catching up with the event log; try again shortly.',
        );
      // Not awaited: a reply is thenable, and awaiting it waits for nothing more than a tick.
      reply.type(JSON_TYPE).send(await answer.text());
    } catch (error) {
      await this.fail(error, charged, request, reply);
    }
  }

  /** A refused request weighs 1, as the family counts it; a 429 from charging is the answer itself. */
  private async fail(error: unknown, charged: boolean, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let apiError = toApiError(error, request.method, request.url.split('?')[0] ?? '/');
    if (!charged) {
      try {
        await chargePublicWeight(this.limiter, request, reply, 1);
      } catch (limit) {
        apiError = toApiError(limit, request.method, request.url);
      }
    }
    if (apiError.httpStatus >= 500) this.logger.error({ err: error, url: request.url }, 'market-data: request failed');
    await reply
      .status(apiError.httpStatus)
      .headers(apiError.headers)
      .type(JSON_TYPE)
      .send(JSON.stringify(apiError.toBody()));
  }
}
