import type { Permission } from '@exchange/contracts';
import { ApiError, type Clock, ErrorCode, RequestParams } from '@exchange/platform';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyDirectory, ApiKeyEntry } from './api-key-directory';
import type { ReplayGuard } from './replay-guard';
import { extractSignedPayload, signatureMatches, splitProblem } from './signature';

export const API_KEY_HEADER = 'x-service-key';
const API_KEY_FORMAT = /^[A-Za-z0-9]{64}$/;
const DEFAULT_RECV_WINDOW = 5000;
const MAX_RECV_WINDOW = 60_000;
/** How far ahead of the server clock a timestamp may be; also the clock skew the replay guard allows between replicas. */
const CLOCK_TOLERANCE_MS = 1000;

export interface AuthContext {
  key: ApiKeyEntry;
  params: RequestParams;
  /** A key of a main account (index 0) acts on the user's sub-accounts too. */
  isMainAccountKey: boolean;
  /** The request's (see correlation.ts), for the records it causes. */
  correlationId: string;
}

export interface AuthOptions {
  permission: Permission;
  /** The userDataStream endpoints check a signature only when one is sent. */
  signatureOptional?: boolean;
}

/**
 * The door of every private endpoint (API-DECISIONS.md, Requests and signatures): the key from
 * X-SERVICE-KEY, the timestamp within recvWindow, HMAC-SHA256 over the raw bytes compared in
 * constant time, the key's permission, then a state-changing request's signature spent once.
 */
export class SignedRequestAuthenticator {
  constructor(
    private readonly directory: ApiKeyDirectory,
    private readonly clock: Clock,
    private readonly replays: ReplayGuard,
  ) {}

  async authenticate(request: FastifyRequest, options: AuthOptions): Promise<AuthContext> {
    const header = request.headers[API_KEY_HEADER];
    const apiKey = Array.isArray(header) ? header[0] : header;
    if (!apiKey) throw new ApiError(ErrorCode.UNAUTHORIZED, 'API-key is missing: send it in the X-SERVICE-KEY header.');
    if (!API_KEY_FORMAT.test(apiKey)) throw new ApiError(ErrorCode.API_KEY_FORMAT_INVALID, 'API-key format invalid.');
    const key = await this.directory.find(apiKey);
    if (!key) throw new ApiError(ErrorCode.REJECTED_API_KEY, 'Invalid API-key, IP, or permissions for action.');

    const rawQuery = rawQueryOf(request);
    const rawBody = rawBodyOf(request);
    const params = RequestParams.fromRaw(rawQuery, rawBody, request.headers['content-type']);
    const { timestamp, recvWindow } = this.checkTimestamp(params);
    const payload = extractSignedPayload(rawQuery, rawBody);
    const { totalParams, signature } = payload;
    if (signature === undefined || signature === '') {
      if (!options.signatureOptional) throw ApiError.missing('signature');
    } else {
      const problem = splitProblem(payload, isJson(request));
      if (problem !== undefined)
        throw new ApiError(ErrorCode.INVALID_SIGNATURE, `Signature for this request is not valid: ${problem}.`);
      if (!signatureMatches(key.secretKey, totalParams, signature))
        throw new ApiError(ErrorCode.INVALID_SIGNATURE, 'Signature for this request is not valid.');
    }
    if (!key.permissions.includes(options.permission)) {
      throw new ApiError(ErrorCode.REJECTED_API_KEY, `This API key lacks the '${options.permission}' permission.`, 403);
    }
    if (signature) {
      // Last, once everything else holds: a request refused for another reason leaves its signature unspent.
      const now = this.clock.now();
      await this.replays.admitOnce(
        request.method,
        apiKey,
        signature,
        timestamp + recvWindow + CLOCK_TOLERANCE_MS - now,
        now,
      );
    }
    return { key, params, isMainAccountKey: key.account.accountIndex === 0, correlationId: request.id };
  }

  private checkTimestamp(params: RequestParams): { timestamp: number; recvWindow: number } {
    const text = params.optional('timestamp');
    if (text === undefined || !/^\d{1,16}$/.test(text)) throw ApiError.missing('timestamp');
    const recvText = params.optional('recvWindow');
    let recvWindow = DEFAULT_RECV_WINDOW;
    if (recvText !== undefined) {
      if (!/^\d{1,16}$/.test(recvText) || Number(recvText) <= 0)
        throw new ApiError(ErrorCode.INVALID_RECV_WINDOW, 'recvWindow must be a positive integer of milliseconds.');
      recvWindow = Number(recvText);
      if (recvWindow > MAX_RECV_WINDOW)
        throw new ApiError(ErrorCode.RECV_WINDOW_TOO_LARGE, `recvWindow must be at most ${MAX_RECV_WINDOW}.`);
    }
    const timestamp = Number(text);
    const now = this.clock.now();
    if (timestamp > now + CLOCK_TOLERANCE_MS || now - timestamp > recvWindow) {
      throw new ApiError(
        ErrorCode.INVALID_TIMESTAMP,
        `Timestamp for this request is outside of the recvWindow. Server time: ${now}.`,
      );
    }
    return { timestamp, recvWindow };
  }
}

function isJson(request: FastifyRequest): boolean {
  return request.headers['content-type']?.includes('application/json') ?? false;
}

export function rawQueryOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q < 0 ? '' : request.url.slice(q + 1);
}

export function rawBodyOf(request: FastifyRequest): string {
  const raw = (request as FastifyRequest & { rawBody?: Buffer | string }).rawBody;
  return raw === undefined ? '' : raw.toString();
}
