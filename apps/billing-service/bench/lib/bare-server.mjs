/**
 * @module
 * The ceiling: a bare `node:http` server in one process that reads the body, JSON.parses it,
 * and answers 202 with a small JSON envelope naming the event as accepted. No framework, no
 * validation, no storage: what one Node process can answer on this machine. Prints
 * `listening <port>` once bound; stops on SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let event;
    try {
      event = JSON.parse(Buffer.concat(chunks).toString('utf8')).events[0];
    } catch {
      response.writeHead(400).end();
      return;
    }
    const payload = JSON.stringify({
      data: { events: [{ event_key: event.event_key, status: 'accepted' }] },
      meta: { request_id: randomUUID() },
    });
    response
      .writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) })
      .end(payload);
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});

process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
