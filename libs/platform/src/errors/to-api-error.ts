import { ApiError } from './api-error';
import { isDependencyUnavailable } from './dependency-unavailable';
import { ErrorCode } from './error-codes';

interface HttpLikeError {
  statusCode?: number;
  status?: number;
  code?: string;
  getStatus?: () => number;
}

/**
 * Maps whatever was thrown to the family's envelope. Framework errors (unknown route, a body the
 * parser refused, a body too large) become their client-facing codes; PostgreSQL, the event log
 * or the disk unable to serve (down, full) becomes 503 / -1016, which says "retry"; anything
 * unexpected becomes -1001 so no stack trace or HTML page ever reaches a client.
 */
export function toApiError(error: unknown, method: string, path: string): ApiError {
  if (error instanceof ApiError) return error;
  const e = (error ?? {}) as HttpLikeError;
  const status = typeof e.getStatus === 'function' ? e.getStatus() : (e.statusCode ?? e.status);
  if (status === 404) return ApiError.unknownPath(method, path);
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return new ApiError(ErrorCode.ILLEGAL_CHARS, 'The request body is too large.', 413);
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return new ApiError(
      ErrorCode.ILLEGAL_CHARS,
      'Unsupported Content-Type; send application/x-www-form-urlencoded or application/json.',
      415,
    );
  }
  if (typeof e.code === 'string' && e.code.startsWith('FST_ERR_CTP')) {
    return new ApiError(ErrorCode.ILLEGAL_CHARS, 'The request body could not be parsed.');
  }
  if (status === 400) return new ApiError(ErrorCode.ILLEGAL_CHARS, 'The request could not be parsed.');
  if (status === 405) return ApiError.unknownPath(method, path);
  if (isDependencyUnavailable(error))
    return new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The exchange is unavailable right now; try again shortly.');
  return ApiError.internal();
}
