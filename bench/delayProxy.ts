import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CancellationReason, TransactionsInFlight } from '../test/support/transactionConflicts.js';

/**
 * An HTTP proxy in front of DynamoDB Local that holds every call `delayMs` before forwarding
 * it: the network round trip to DynamoDB that a local emulator hides. It counts the calls, so
 * that a server that reports none (or reports them wrongly) is still measured.
 *
 * Given `conflicts`, it can also do on the wire what DynamoDB does and DynamoDB Local does not
 * (switched by `emulateConflicts`, off at first): a TransactWriteItems that names an item of
 * another transaction in flight (from when it is forwarded until its answer has been received)
 * is answered TransactionCanceledException, reason TransactionConflict, as AWS answers it.
 */
export interface DelayProxy {
  endpoint: string;
  calls: () => number;
  /** Turns the emulation of transaction conflicts on or off (only with `conflicts`). */
  emulateConflicts(on: boolean): void;
  close(): Promise<void>;
}

const TRANSACT_WRITE = 'DynamoDB_20120810.TransactWriteItems';

export async function startDelayProxy(
  target: string,
  delayMs: number,
  conflicts?: TransactionsInFlight,
): Promise<DelayProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  let calls = 0;
  let emulating = false;
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse, done: () => void) => {
    const onward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('end', done);
        answer.on('close', done);
        answer.pipe(res);
      },
    );
    onward.on('error', () => {
      done();
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    onward.end(body);
  };
  const server = createServer((req, res) => {
    calls++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        const body = Buffer.concat(chunks);
        const started =
          emulating && conflicts && req.headers['x-amz-target'] === TRANSACT_WRITE
            ? conflicts.begin(transactItems(body))
            : { end: () => {} };
        if ('conflict' in started) cancel(res, started.conflict);
        else forward(req, body, res, once(started.end));
      }, delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: () => calls,
    emulateConflicts(on) {
      if (on && !conflicts) throw new Error('this proxy was started without conflict emulation');
      emulating = on;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** The TransactItems of a TransactWriteItems request's body (DynamoDB JSON). */
function transactItems(body: Buffer): unknown[] {
  const parsed = JSON.parse(body.toString('utf8')) as { TransactItems?: unknown[] };
  return parsed.TransactItems ?? [];
}

/**
 * DynamoDB's answer to a cancelled transaction, as the SDK's awsJson1_0 protocol parses it: the
 * error code from `__type` (or the x-amzn-ErrorType header), the message from `message`, and the
 * exception's members (CancellationReasons) from the body.
 */
function cancel(res: ServerResponse, reasons: CancellationReason[]): void {
  const body = JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
    message:
      'Transaction cancelled, please refer cancellation reasons for specific reasons ' +
      `[${reasons.map((r) => r.Code).join(', ')}]`,
    CancellationReasons: reasons,
  });
  res.writeHead(400, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    'x-amzn-ErrorType': 'TransactionCanceledException',
  });
  res.end(body);
}

/** `fn`, to be called at most once. */
function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}
