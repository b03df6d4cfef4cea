/**
 * The baseline of the live fan-out (server-live-fan-out.ts), in a process of its own: a bare `ws`
 * server that broadcasts one message to every socket when told to over HTTP. POST /message sets
 * the bytes (the product's own bid_placed, as sent); POST /broadcast sends them to every socket as a
 * text frame, as the product sends its messages. It answers a subscribe as the product does, so
 * that clients treat both servers alike. Tells its parent its port over IPC.
 */
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

let message = Buffer.from('{}');

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method === 'POST' && request.url === '/message') {
      message = Buffer.concat(chunks);
    } else if (request.method === 'POST' && request.url === '/broadcast') {
      for (const socket of sockets.clients) socket.send(message, { binary: false });
    } else {
      response.statusCode = 404;
    }
    response.end();
  });
});

const sockets = new WebSocketServer({ server, path: '/ws' });
sockets.on('connection', (socket) => {
  socket.on('message', (data) => {
    const request = JSON.parse(data.toString()) as { action?: string; auctionId?: string };
    if (request.action === 'subscribe') socket.send(JSON.stringify({ type: 'subscribed', auctionId: request.auctionId }));
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
// The benchmark ended (or died): nothing is left to serve.
process.on('disconnect', () => process.exit(0));
