/**
 * A WebSocket that reconnects with a growing delay and speaks JSON. `onOpen` runs on every
 * (re)connect, so a caller resubscribes and re-queries there (README, User data stream).
 */
export class JsonSocket {
  private socket: WebSocket | undefined;
  private closed = false;
  private retryMs = 500;

  constructor(
    private readonly url: () => Promise<string> | string,
    private readonly handlers: {
      onOpen(send: (message: unknown) => void): void;
      onMessage(message: unknown): void;
      onState?(open: boolean): void;
    },
  ) {
    void this.connect();
  }

  send(message: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let url: string;
    try {
      url = await this.url();
    } catch {
      this.retry();
      return;
    }
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = 500;
      this.handlers.onState?.(true);
      this.handlers.onOpen((m) => socket.send(JSON.stringify(m)));
    };
    socket.onmessage = (event) => this.handlers.onMessage(JSON.parse(String(event.data)) as unknown);
    socket.onclose = () => {
      this.handlers.onState?.(false);
      if (this.socket === socket) this.retry();
    };
  }

  private retry(): void {
    if (this.closed) return;
    setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
  }
}

export function wsUrl(path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}
