import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError, CONFIG, type Config, ErrorCode } from '@exchange/platform';

/** `Authorization: Bearer <ADMIN_TOKEN>` on every operator call, compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(@Inject(CONFIG) config: Config) {
    this.expected = config.ADMIN_TOKEN ? Buffer.from(config.ADMIN_TOKEN) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!this.expected) throw ApiError.unknownPath(request.method, request.url.split('?')[0] ?? '/');
    const header = request.headers.authorization ?? '';
    const token = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (token.length !== this.expected.length || !timingSafeEqual(token, this.expected)) {
      throw new ApiError(ErrorCode.UNAUTHORIZED, 'The operator API needs Authorization: Bearer <ADMIN_TOKEN>.', 401);
    }
    return true;
  }
}
