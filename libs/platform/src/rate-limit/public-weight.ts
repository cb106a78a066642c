import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from './rate-limiter';

/**
 * Public endpoints count their weight per client IP (behind the edge proxy, Fastify's trustProxy
 * takes it from X-Forwarded-For) and report the IP's usage in the response headers.
 */
export async function chargePublicWeight(
  limiter: RateLimiter,
  request: FastifyRequest,
  reply: FastifyReply,
  weight: number,
): Promise<void> {
  void reply.headers(await limiter.chargeWeight(`ip:${request.ip}`, weight));
}
