import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

/**
 * What Fastify's router refuses before any route (and so before Nest's filter) runs: a path
 * that does not decode, a path parameter over its length. Fastify's own answers echo the URL in
 * their own shape; these are the family's envelope and name nothing the client sent.
 */
export function frameworkError(error: { code?: string }): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new ApiError(ErrorCode.ILLEGAL_CHARS, 'The request path is malformed.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(ErrorCode.ILLEGAL_CHARS, 'The request path is too long.', 414);
    default:
      return ApiError.internal();
  }
}

/** Node's HTTP parser refusing a request (the server's 'clientError'), as status and envelope. */
function clientErrorAnswer(code: string | undefined): ApiError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(ErrorCode.UNKNOWN, 'The request did not arrive in time.', 408);
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(ErrorCode.ILLEGAL_CHARS, 'The request headers are too large.', 431);
    default:
      return new ApiError(ErrorCode.ILLEGAL_CHARS, 'The request could not be parsed.', 400);
  }
}

/**
 * The server's 'clientError' handler: malformed HTTP, headers too large, a request that took
 * longer than the header or request timeout (slowloris). Answered in the envelope, then the
 * connection is destroyed; a reset connection is only destroyed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const headersSent =
    (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code !== 'ECONNRESET' && socket.writable && !headersSent) {
    const answer = clientErrorAnswer(error.code);
    const body = JSON.stringify(answer.toBody());
    socket.write(
      `HTTP/1.1 ${answer.httpStatus} ${STATUS_CODES[answer.httpStatus]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
