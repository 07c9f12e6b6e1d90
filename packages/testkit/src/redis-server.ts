/**
 * @module
 * A Redis for tests: the machine's own on 127.0.0.1:6379, else a private `redis-server` on a
 * free port that keeps nothing on disk.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

export interface RedisServer {
  readonly url: string;
  stop(): Promise<void>;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function findOrStartRedis(): Promise<RedisServer> {
  if (await answersPing(6379)) return { url: 'redis://127.0.0.1:6379', stop: async () => {} };
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let attempt = 0; attempt < 100 && !(await answersPing(port)); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill();
    },
  };
}
