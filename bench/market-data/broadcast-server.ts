// The fan-out ceiling: a bare `ws` server on PORT that, once SOCKETS clients subscribed, sends one
// diffDepth-sized frame (encoded once, with its sendTime) to every socket, over and over, pausing
// while any socket has more than 4 MB unsent (the exchange's drop bound) so it measures delivery.
import { WebSocketServer } from 'ws';

const expected = Number(process.env.SOCKETS);
const server = new WebSocketServer({ port: Number(process.env.PORT), host: '127.0.0.1' });
const levels = Array.from({ length: 2 }, (_, i) => [`90000.${String(i).padStart(2, '0')}`, '0.00010000']);

server.on('connection', (ws) => {
  ws.once('message', () => {
    if (server.clients.size >= expected) broadcast(0);
  });
});

function broadcast(sequence: number): void {
  const frame = JSON.stringify({
    symbol: 'ETHUSDT',
    symbolName: 'ETHUSDT',
    topic: 'diffDepth',
    data: [{ s: 'ETHUSDT', t: Date.now(), U: sequence, u: sequence, b: [], a: levels }],
    f: false,
    sendTime: Date.now(),
  });
  let backlog = false;
  for (const ws of server.clients) {
    ws.send(frame);
    if (ws.bufferedAmount > 4 * 1024 * 1024) backlog = true;
  }
  if (server.clients.size === 0) return;
  if (backlog) setTimeout(() => broadcast(sequence + 1), 5);
  else setImmediate(() => broadcast(sequence + 1));
}

server.on('listening', () => process.stdout.write('ready\n'));
