/**
 * The plumbing of a `text/event-stream` answer (WHATWG HTML "Server-sent events"), shared by the live
 * preview's stream (reads/preview-events.actions.ts) and the document streams
 * (collaboration/document-events.actions.ts): events written as `event:`/`data:` lines, a keep-alive
 * comment now and then, the end of the stream on the client's leave or the server's graceful close.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { EventsHub } from './reads/preview-events.js';

/** A comment line now and then keeps proxies from closing a quiet stream. */
export const KEEP_ALIVE_MS = 25_000;

/** An open stream's writing end. */
export interface EventStream {
  /** Writes one event (nothing once the stream ended). */
  send(event: string, data: unknown): void;
  /** Ends the stream (the client sees it close). */
  end(): void;
  /** The body to answer with. */
  readonly body: PassThrough;
}

/** A stream to write events into before and after the answer is sent. */
export function createEventStream(): EventStream {
  const body = new PassThrough();
  return {
    body,
    send(event, data) {
      if (body.writableEnded) return;
      body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (!body.writableEnded) body.end();
    },
  };
}

/**
 * Answers with the stream: keep-alive comments, `stop` called once when the stream ends for any
 * reason (client gone, `end`, the server closing through `hub`), and the headers that keep proxies
 * from buffering it.
 */
export function replyWithEventStream(
  reply: FastifyReply,
  stream: EventStream,
  hub: Pick<EventsHub, 'onClose'>,
  stop: () => void,
): FastifyReply {
  const { body } = stream;
  const keepAlive = setInterval(() => {
    if (!body.writableEnded) body.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  // A graceful close of the server ends the stream (the client reconnects elsewhere).
  const unlisten = hub.onClose(() => stream.end());
  let stopped = false;
  const close = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(keepAlive);
    unlisten();
    stop();
  };
  body.once('end', close);
  body.once('close', close);
  const socket = reply.request.raw.socket;
  const gone = () => {
    socket?.off('end', hungUp);
    close();
    body.destroy();
  };
  // The server keeps half-closed connections open to answer them (http/create-app.ts), so a client
  // that hangs up shows only as the end of what it sends, not as a closed response. No event-stream
  // reader half-closes and stays: the end of its side is its leaving, and its connection is closed.
  const hungUp = () => {
    gone();
    socket?.destroy();
  };
  reply.raw.once('close', gone);
  socket?.once('end', hungUp);
  const sent = reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    .send(body);
  // The client may have gone while the stream was being opened (an editor closed at once): its 'close'
  // came before anyone listened, and the stream would otherwise stay open, renewing a mark for nobody.
  if (reply.raw.destroyed || !socket || socket.destroyed || socket.readableEnded) hungUp();
  return sent;
}
