import { connect, type Socket } from 'node:net';

/** What came back for one raw request: an HTTP answer, or the way the server failed to give one. */
export type RawAnswer =
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: 'no-answer'; after: number }
  | { kind: 'closed'; bytes: number }
  | { kind: 'refused'; error: string };

/**
 * One request as bytes over a fresh TCP connection, so nothing a client library would refuse to
 * send (control bytes in the request line, odd methods, repeated headers) is out of reach. The
 * answer is read up to its Content-Length (or the end of a chunked body, or the close). A server
 * that has not answered within `timeoutMs` gets the connection reset, as an impatient attacker
 * would reset it.
 */
export function rawRequest(
  port: number,
  request: Buffer,
  options: { timeoutMs: number; head?: boolean },
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let settled = false;
    const socket: Socket = connect({ host: '127.0.0.1', port });
    const finish = (answer: RawAnswer, reset = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reset) socket.resetAndDestroy();
      else socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ kind: 'no-answer', after: Date.now() - started }, true), options.timeoutMs);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const parsed = parseAnswer(Buffer.concat(chunks), options.head ?? false, false);
      if (parsed) finish(parsed);
    });
    socket.on('end', () =>
      finish(
        parseAnswer(Buffer.concat(chunks), options.head ?? false, true) ?? {
          kind: 'closed',
          bytes: Buffer.concat(chunks).length,
        },
      ),
    );
    socket.on('close', () =>
      finish(
        parseAnswer(Buffer.concat(chunks), options.head ?? false, true) ?? {
          kind: 'closed',
          bytes: Buffer.concat(chunks).length,
        },
      ),
    );
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // Refused is the process gone; a reset of a connection it accepted is a close without an answer.
      if (error.code === 'ECONNREFUSED') finish({ kind: 'refused', error: error.message });
      else if (chunks.length === 0) finish({ kind: 'closed', bytes: 0 });
      else
        finish(
          parseAnswer(Buffer.concat(chunks), options.head ?? false, true) ?? {
            kind: 'closed',
            bytes: Buffer.concat(chunks).length,
          },
        );
    });
  });
}

/** Skips interim 1xx answers; undefined while the answer is incomplete (and the stream still open). */
function parseAnswer(data: Buffer, head: boolean, ended: boolean): RawAnswer | undefined {
  let start = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start);
    if (end < 0) return undefined;
    const lines = data.subarray(start, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) return ended ? { kind: 'closed', bytes: data.length } : undefined;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200 && status !== 101) {
      start = bodyStart;
      continue;
    }
    if (head || status === 204 || status === 304 || status === 101)
      return { kind: 'answer', status, headers, body: Buffer.alloc(0) };
    const rest = data.subarray(bodyStart);
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (rest.length >= length) return { kind: 'answer', status, headers, body: rest.subarray(0, length) };
      return ended ? { kind: 'answer', status, headers, body: rest } : undefined;
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(rest);
      if (body) return { kind: 'answer', status, headers, body };
      return ended ? { kind: 'answer', status, headers, body: rest } : undefined;
    }
    return ended ? { kind: 'answer', status, headers, body: rest } : undefined;
  }
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isInteger(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
