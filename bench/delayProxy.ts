import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of DynamoDB Local that holds every call `delayMs` before forwarding
 * it: the network round trip to DynamoDB that a local emulator hides. It counts the calls, so
 * that a server that reports none (or reports them wrongly) is still measured.
 */
export interface DelayProxy {
  endpoint: string;
  calls: () => number;
  close(): Promise<void>;
}

export async function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  let calls = 0;
  const server = createServer((req, res) => {
    calls++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        const forward = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', () => {
          res.writeHead(502);
          res.end();
        });
        forward.end(Buffer.concat(chunks));
      }, delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: () => calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
