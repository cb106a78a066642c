// The ceiling of bench/user-stream: a bare `ws` server that, per event, encodes the same two
// frames once and sends them to the sockets of the event's account. No event log, no store, no
// keep-alive: only the fan-out the user stream also has to do.
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { streamLedgerEvent } from '../../libs/user-stream/src/domain/account-stream';
import { changedOrder, placedOrder } from '@exchange/contracts';
import { type BenchAccount, orderPlaced, tradeSettled } from './bench-frames';
import { serveIpc } from './ipc-worker';

const port = Number(process.env.BARE_PORT);
const byAccount = new Map<string, WebSocket[]>();
const server = createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (ws, request) => {
  const accountId = (request.url ?? '').split('/').pop() ?? '';
  let list = byAccount.get(accountId);
  if (!list) byAccount.set(accountId, (list = []));
  list.push(ws);
  ws.on('close', () => list.splice(list.indexOf(ws), 1));
});

/** Gathers a socket's frames of one chunk into one write, as the user stream does per consumed batch. */
function corked(ws: WebSocket, gathered: Set<Socket>): void {
  const socket = (ws as unknown as { _socket: Socket })._socket;
  if (gathered.has(socket)) return;
  socket.cork();
  gathered.add(socket);
}

async function burst(accounts: BenchAccount[], events: number, start: number): Promise<number> {
  let sent = 0;
  // Every event of the burst exists from its start, as the published burst does within a moment:
  // latency counts the wait behind the events before it.
  const created = Date.now();
  const gathered = new Set<Socket>();
  for (let n = 0; n < events; n++) {
    const account = accounts[n % accounts.length]!;
    const event = tradeSettled(account, 0, start + n, created);
    const state = {
      accountId: account.accountId,
      flags: { canTrade: true, canWithdraw: true, canDeposit: true },
      lastSeq: -1,
      lastE: 0,
    };
    const order = changedOrder(placedOrder(orderPlaced(account, 0, created)), event);
    for (const frame of streamLedgerEvent(state, event, () => 8, undefined, order).frames) {
      const data = Buffer.from(JSON.stringify(frame));
      for (const ws of byAccount.get(account.accountId) ?? []) {
        corked(ws, gathered);
        ws.send(data, { binary: false });
        sent++;
      }
    }
    // Let the sockets drain, as the user stream does between consumed batches.
    if (n % 500 === 499 || n === events - 1) {
      for (const socket of gathered) socket.uncork();
      gathered.clear();
      await new Promise((r) => setImmediate(r));
    }
  }
  return sent;
}

const listening = new Promise<void>((done) => server.listen(port, '127.0.0.1', done));

serveIpc(async (message) => {
  if (message.type === 'ready') return listening.then(() => ({}));
  if (message.type === 'burst')
    return { sent: await burst(message.accounts as BenchAccount[], message.events as number, message.start as number) };
  throw new Error(`bare-broadcast-server: unknown message ${String(message.type)}`);
});
