import WebSocket from 'ws';
import type { Violation } from './answer-oracle';
import { isEnvelope } from './answer-oracle';
import type { SocketFrame } from './socket-input.arbitrary';
import { waitFor } from '../support/wait-for';

/** Close codes a server may use on a hostile client: normal, going away, bad UTF-8, policy, too big. */
const ALLOWED_CLOSES = new Set([1000, 1001, 1007, 1008, 1009]);

interface Received {
  data: Buffer;
  binary: boolean;
}

/**
 * A socket that sends one hostile frame at a time, then `{"ping":n}`, and takes whatever arrived
 * before `{"pong":n}` as the answer to that frame. A socket the server closed with an allowed
 * code is replaced by a fresh one; one that neither answers nor closes is a violation.
 */
export class SocketProbe {
  private ws!: WebSocket;
  private received: Received[] = [];
  private closed: { code: number; reason: string } | undefined;
  private n = 0;

  constructor(
    private readonly url: string,
    private readonly judgeMessage: (value: unknown) => string | undefined,
  ) {}

  async open(): Promise<void> {
    this.received = [];
    this.closed = undefined;
    this.ws = new WebSocket(this.url, { perMessageDeflate: false });
    this.ws.on('message', (data: Buffer, binary) => this.received.push({ data, binary }));
    this.ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
    this.ws.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
  }

  /** Sends the frame; the violations its answer shows. */
  async send(frame: SocketFrame, timeoutMs: number): Promise<Violation[]> {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) await this.open();
    const n = ++this.n;
    const start = this.received.length;
    this.ws.send(frame.data, { binary: frame.binary });
    this.ws.send(JSON.stringify({ ping: n }));
    const pongAt = (): number =>
      this.received.findIndex((r, i) => i >= start && !r.binary && r.data.toString() === JSON.stringify({ pong: n }));
    try {
      await waitFor(() => pongAt() >= 0 || this.closed !== undefined, `pong ${n}`, timeoutMs, 5);
    } catch {
      this.ws.terminate();
      return [{ kind: 'no answer', detail: `neither {"pong":${n}} nor a close within ${timeoutMs} ms` }];
    }
    const end = pongAt() >= 0 ? pongAt() : this.received.length;
    const violations = this.received.slice(start, end).flatMap((r) => this.judge(r));
    if (this.closed && !ALLOWED_CLOSES.has(this.closed.code))
      violations.push({
        kind: 'outside the envelope',
        detail: `socket closed ${this.closed.code} ${JSON.stringify(this.closed.reason)}`,
      });
    return violations;
  }

  private judge(r: Received): Violation[] {
    if (r.binary) return [{ kind: 'outside the envelope', detail: `a binary frame of ${r.data.length} bytes` }];
    let value: unknown;
    try {
      value = JSON.parse(r.data.toString('utf8'));
    } catch {
      return [
        { kind: 'outside the envelope', detail: `not JSON: ${JSON.stringify(r.data.toString('utf8').slice(0, 120))}` },
      ];
    }
    if (value !== null && typeof value === 'object' && 'code' in value && !isEnvelope(value))
      return [{ kind: 'outside the envelope', detail: JSON.stringify(value).slice(0, 160) }];
    const problem = isEnvelope(value) ? undefined : this.judgeMessage(value);
    return problem
      ? [{ kind: 'outside the envelope', detail: `${problem}: ${JSON.stringify(value).slice(0, 160)}` }]
      : [];
  }

  close(): void {
    this.ws.terminate();
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const onlyPong = (v: Record<string, unknown>) => Object.keys(v).length === 1 && 'pong' in v;

/** Public stream: an error envelope, a pong, or a data frame `{symbol, symbolName, topic, data: [...], f, sendTime}`. */
export function judgePublicStreamMessage(v: unknown): string | undefined {
  if (!isObject(v)) return 'not an object';
  if (onlyPong(v)) return undefined;
  const ok =
    typeof v.symbol === 'string' &&
    typeof v.symbolName === 'string' &&
    typeof v.topic === 'string' &&
    Array.isArray(v.data) &&
    typeof v.f === 'boolean' &&
    typeof v.sendTime === 'number';
  return ok ? undefined : 'neither an error, a pong nor a data frame';
}

/** User stream: a pong, or an event frame `{e, E, …}` of the three documented types. */
export function judgeUserStreamMessage(v: unknown): string | undefined {
  if (!isObject(v)) return 'not an object';
  if (onlyPong(v)) return undefined;
  const ok =
    ['executionReport', 'outboundAccountInfo', 'listenKeyExpired'].includes(v.e as string) && typeof v.E === 'number';
  return ok ? undefined : 'neither a pong nor an event frame';
}
