/** A minimal client for e2e tests: real HTTP against a listening app, JSON bodies parsed. */
export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function http<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer<T>> {
  const response = await fetch(baseUrl + path, { method, body: init.body, headers: init.headers });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Left as text: the assertion that follows will say what came back.
  }
  return { status: response.status, headers: response.headers, body: body as T };
}
