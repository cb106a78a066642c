import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '@exchange/platform';
import type { AuthContext, AuthOptions, SignedRequestAuthenticator } from './signed-request-authenticator';

export interface PrivateEndpointSpec extends AuthOptions {
  /** REQUESTS_WEIGHT of the endpoint, counted per API key. */
  weight: number;
  /** New orders also count against the ORDERS limiter of the account. */
  countsAsOrder?: boolean;
}

/**
 * What every private endpoint does before its own work: authenticate, charge the key's weight
 * (and the account's order count), and put the limiters' headers on the answer, errors included.
 */
export class PrivateEndpoints {
  constructor(
    private readonly authenticator: SignedRequestAuthenticator,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * Authenticates and charges the request; the limiters' headers go on the reply at once, so
   * whatever answers it after this (the handler, or the error filter) sends them.
   */
  async admit(request: FastifyRequest, reply: FastifyReply, spec: PrivateEndpointSpec): Promise<AuthContext> {
    const ctx = await this.authenticator.authenticate(request, spec);
    void reply.headers(await this.limiter.chargeWeight(`key:${ctx.key.apiKey}`, spec.weight));
    if (spec.countsAsOrder) void reply.headers(await this.limiter.chargeOrder(ctx.key.account.accountId));
    return ctx;
  }
}
