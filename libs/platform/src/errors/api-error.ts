import { ErrorCode, type ErrorCodeValue, httpStatusOf } from './error-codes';

/**
 * The one error type every layer throws toward a client. It carries the family's code and a
 * sentence that names the bad parameter; the HTTP status follows from the code unless a caller
 * must say otherwise (for example -2015 as 403 when a valid key lacks a permission).
 */
export class ApiError extends Error {
  readonly httpStatus: number;

  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    httpStatus?: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.httpStatus = httpStatus ?? httpStatusOf(code);
  }

  toBody(): { code: number; msg: string } {
    return { code: this.code, msg: this.message };
  }

  static missing(param: string): ApiError {
    return new ApiError(
      ErrorCode.MANDATORY_PARAM_MISSING,
      `Mandatory parameter '${param}' was not sent, was empty/null, or malformed.`,
    );
  }

  static invalid(param: string, why: string): ApiError {
    return new ApiError(ErrorCode.INVALID_PARAM_VALUE, `Invalid value for parameter '${param}': ${why}.`);
  }

  static unknownPath(method: string, path: string): ApiError {
    return new ApiError(ErrorCode.UNSUPPORTED_OPERATION, `Unsupported operation: ${method} ${path} does not exist.`);
  }

  static internal(): ApiError {
    return new ApiError(ErrorCode.INTERNAL, 'Internal error; unable to process your request. Please try again.');
  }
}
