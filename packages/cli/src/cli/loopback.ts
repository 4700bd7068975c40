/**
 * The loopback listener of `cms login`: one ephemeral port on 127.0.0.1 and, when available, the
 * same port on ::1; the callback must come to our secret `state` path and hands back the one-time `code`,
 * or `error=access_denied` when the user denied the sign-in on the authorize page.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the authorize page sent back: the one-time code, or the user's refusal. */
export type LoopbackAnswer = { code: string; challengeId?: string } | { denied: true; challengeId?: string };

export interface Loopback {
  callbackUrl: string;
  state: string;
  /** Resolves with what the authorize page sent back. */
  code: Promise<LoopbackAnswer>;
  close(): void;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:4rem"><h1>${title}</h1><p>${text}</p></body>`;

export async function startLoopback(): Promise<Loopback> {
  const state = randomBytes(16).toString('hex');
  let resolveCode!: (value: LoopbackAnswer) => void;
  const code = new Promise<LoopbackAnswer>((done) => {
    resolveCode = done;
  });
  const handler = (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const value = url.searchParams.get('code');
    const denied = url.searchParams.get('error') === 'access_denied';
    if (url.pathname !== `/callback/${state}` || (!value && !denied)) {
      response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE('Not signed in', 'This address does not belong to the running cms login.'));
      return;
    }
    const challengeId = url.searchParams.get('challengeId') ?? undefined;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (denied) {
      response.end(PAGE('Not signed in', 'You denied this sign-in. You can close this tab; nothing was granted.'));
      resolveCode({ denied: true, ...(challengeId ? { challengeId } : {}) });
      return;
    }
    response.end(PAGE('Signed in', 'You can close this tab and return to the terminal.'));
    resolveCode({ code: value as string, ...(challengeId ? { challengeId } : {}) });
  };
  const servers: Server[] = [];
  const listen = (host: string, port: number) =>
    new Promise<Server | undefined>((done) => {
      const server = createServer(handler);
      server.once('error', () => done(undefined));
      server.listen(port, host, () => done(server));
    });
  const v4 = await listen('127.0.0.1', 0);
  if (!v4) throw new Error('cannot listen on 127.0.0.1');
  servers.push(v4);
  const port = (v4.address() as AddressInfo).port;
  const v6 = await listen('::1', port);
  if (v6) servers.push(v6);
  return {
    // The state is a path segment: the authorize page appends `?challengeId=&code=` to this address.
    callbackUrl: `http://127.0.0.1:${port}/callback/${state}`,
    state,
    code,
    close() {
      for (const server of servers) server.close();
    },
  };
}
