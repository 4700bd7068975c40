/**
 * A loopback proxy in front of the test server that holds the requests a test names (a release's
 * publish, a migration) until the test lets them through, and counts every request it sees: a server
 * whose answer is late, made deterministic. A held request is forwarded on `release()` even when the
 * client gave up on it meanwhile, as a server keeps working on a request whose client left.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingProxy {
  url: string;
  /** Requests seen so far, as `METHOD /path`. */
  seen: string[];
  /** Resolves once `count` requests matching `pattern` (`GET /api/v1/releases/...`) have been answered. */
  answered(pattern: RegExp, count: number): Promise<void>;
  /** Forwards the held requests, and every later one. */
  release(): void;
  close(): Promise<void>;
}

interface Held {
  req: IncomingMessage;
  body: Buffer;
  res: ServerResponse;
}

export async function startHoldingProxy(target: string, hold: (line: string) => boolean): Promise<HoldingProxy> {
  const base = new URL(target);
  const seen: string[] = [];
  const answeredLines: string[] = [];
  const waiters: { pattern: RegExp; count: number; done: () => void }[] = [];
  const held: Held[] = [];
  let holding = true;

  const check = () => {
    for (const waiter of [...waiters]) {
      if (answeredLines.filter((line) => waiter.pattern.test(line)).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done();
      }
    }
  };
  const forward = ({ req, body, res }: Held, line: string) => {
    const upstream = httpRequest(
      { host: base.hostname, port: base.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          if (!res.destroyed) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          }
          answeredLines.push(line);
          check();
        });
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const line = `${req.method} ${new URL(req.url ?? '/', base).pathname}`;
      seen.push(line);
      const entry = { req, body: Buffer.concat(chunks), res };
      if (holding && hold(line)) held.push(entry);
      else forward(entry, line);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    answered: (pattern, count) =>
      new Promise<void>((done) => {
        waiters.push({ pattern, count, done });
        check();
      }),
    release() {
      holding = false;
      for (const entry of held.splice(0)) forward(entry, `${entry.req.method} ${entry.req.url}`);
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
