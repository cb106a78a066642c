/**
 * Signed calls from the browser (API-DECISIONS "Requests and signatures"): HMAC-SHA256 with
 * WebCrypto over the exact bytes sent, the query string followed by the form body. The secret is
 * imported once as a non-extractable CryptoKey and lives only in this object's memory: it is
 * never sent, never stored.
 */
export interface ApiErrorBody {
  code: number;
  msg: string;
}

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.msg);
  }
}

export type Params = Record<string, string | number | undefined>;

const encoder = new TextEncoder();

export function encodeParams(params: Params): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : {};
  if (!response.ok) {
    const error = body as Partial<ApiErrorBody>;
    throw new ApiCallError(response.status, { code: error.code ?? -1000, msg: error.msg ?? `HTTP ${response.status}` });
  }
  return body as T;
}

export async function publicGet<T>(path: string, params: Params = {}): Promise<T> {
  const query = encodeParams(params);
  return answer<T>(await fetch(query ? `${path}?${query}` : path));
}

export class SignedApi {
  private constructor(
    readonly apiKey: string,
    private readonly key: CryptoKey,
  ) {}

  static async create(apiKey: string, secretKey: string): Promise<SignedApi> {
    const key = await crypto.subtle.importKey(
      'raw',
      encoder.encode(secretKey),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return new SignedApi(apiKey, key);
  }

  /**
   * GET and DELETE carry everything in the query; POST sends everything as a form body and only
   * the signature in the query, so the signed text never straddles the split (the API refuses a
   * split that does not fall on a pair boundary). Every call is signed afresh with the current
   * time (a state-changing signature is accepted once).
   */
  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: Params = {}): Promise<T> {
    const inBody = method === 'POST';
    const signed = encodeParams({ ...params, timestamp: Date.now() });
    const signature = hex(await crypto.subtle.sign('HMAC', this.key, encoder.encode(signed)));
    const headers: Record<string, string> = { 'X-SERVICE-KEY': this.apiKey };
    if (inBody) headers['content-type'] = 'application/x-www-form-urlencoded';
    const url = inBody ? `${path}?signature=${signature}` : `${path}?${signed}&signature=${signature}`;
    const response = await fetch(url, { method, headers, body: inBody ? signed : undefined });
    return answer<T>(response);
  }
}

/** The operator API: a bearer token, JSON bodies. */
export class OperatorApi {
  constructor(private readonly token: string) {}

  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return answer<T>(
      await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
  }
}

export function errorText(error: unknown): string {
  if (error instanceof ApiCallError) return `${error.body.msg} (${error.body.code})`;
  return error instanceof Error ? error.message : String(error);
}
