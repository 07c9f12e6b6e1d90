/**
 * @module
 * The bare server a user writes to see what one Node process can answer: `node:http`, read the
 * body, JSON.parse it, answer 202 with a fixed small body. No request id and no envelope built
 * per request, as bare-server.mjs (the usage bench's ceiling) builds. Prints `listening <port>`
 * once bound; stops on SIGTERM.
 */
import { createServer } from 'node:http';

const ACCEPTED = '{"status":"accepted"}';
const HEADERS = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ACCEPTED) };

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(202, HEADERS).end(ACCEPTED);
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
