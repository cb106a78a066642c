import { patchKafkajsIdleTimer } from './kafkajs-idle-timer';

interface PushedRequest {
  entry: { correlationId: number; [field: string]: unknown };
  expectResponse: boolean;
  sendRequest(): void;
}

interface Queue {
  throttledUntil: number;
  pending: unknown[];
  push(request: PushedRequest): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer | null; size: number }): void;
  destroy(): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => Queue;
const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue(): Queue {
  return new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'spec',
    broker: '127.0.0.1:9092',
    logger,
  });
}

const request = (correlationId: number, sendRequest: () => void): PushedRequest => ({
  entry: {
    correlationId,
    apiKey: 1,
    apiName: 'Fetch',
    apiVersion: 11,
    resolve: () => undefined,
    reject: () => undefined,
  },
  expectResponse: true,
  sendRequest,
});

describe('kafkajs idle timer fix', () => {
  beforeAll(() => {
    expect(patchKafkajsIdleTimer()).toBe(true);
  });
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('leaves a connection with nothing pending without a timer once its requests are answered', () => {
    const q = queue();
    q.push(request(1, () => undefined));
    q.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
    // Unpatched, the empty queue re-arms a 1 ms check for ever: 1,000 wake-ups a second per connection.
    expect(jest.getTimerCount()).toBe(0);
    q.destroy();
  });

  it('still sends a request queued behind the in-flight limit once the one in flight is answered', () => {
    const q = queue();
    const sent: number[] = [];
    q.push(request(1, () => sent.push(1)));
    q.push(request(2, () => sent.push(2)));
    expect(sent).toEqual([1]);
    q.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
    expect(sent).toEqual([1, 2]);
    q.destroy();
  });

  it('still sends a request queued while the broker throttles this client, when the throttle ends', () => {
    const q = queue();
    const sent: number[] = [];
    q.throttledUntil = Date.now() + 50;
    q.push(request(1, () => sent.push(1)));
    expect(sent).toEqual([]);
    jest.advanceTimersByTime(60);
    expect(sent).toEqual([1]);
    q.destroy();
  });
});
