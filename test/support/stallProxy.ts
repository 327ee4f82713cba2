import { Agent, createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of DynamoDB Local that can stop answering: after `stall()`, every call
 * is accepted and held, never answered (a DynamoDB that takes connections and then hangs),
 * until `resume()`. Held calls are dropped when the caller gives up on them.
 */
export interface StallProxy {
  endpoint: string;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startStallProxy(target: string): Promise<StallProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  let stalled = false;
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (stalled) {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
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
      forward.on('error', () => res.writeHead(502).end());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stall: () => (stalled = true),
    resume: () => (stalled = false),
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
