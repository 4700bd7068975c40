import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { CmsError } from '@cms/core';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { ServerConfig } from '../config.js';
import type { TargetResolver } from '../tenancy/target-resolver.js';
import { type AuthStrategy, createAuthenticate } from './authenticate.js';
import { authorize } from './authorize.js';
import { createClientErrorHandler } from './client-errors.js';
import { csrfCheck } from './csrf.js';
import type { DeferredCompilers } from './deferred-compilers.js';
import { type EarlyAnswer, NO_EARLY_ANSWER } from './early-reads.js';
import { registerErrorEnvelope, sendError } from './error-envelope.js';
import { ANONYMOUS } from './request-context.js';
import { generateRequestId, registerRequestId, requestIdsOf } from './request-id.js';
import { createResolveTarget } from './resolve-target.js';
import { targetGuard } from './target-guard.js';
import './fastify-types.js';

type CompilersFactory = NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void;
}

/**
 * Creates the HTTP app with the cross-cutting request steps; routes are mounted afterwards. With
 * `compilers`, route schemas are compiled at first use instead of at `ready` (http/deferred-compilers.ts).
 */
export function createApp(
  config: ServerConfig,
  options: { logStream?: LogStream; compilers?: DeferredCompilers; early?: EarlySlot } = {},
): FastifyInstance {
  let log: FastifyInstance['log'] | undefined;
  let closing = false;
  const early = options.early ?? { answer: NO_EARLY_ANSWER };
  const app: FastifyInstance = Fastify({
    logger: { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: generateRequestId,
    // One line per request, written by registerRequestId when the response is done.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: config.maxBodyBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // request.ip is the client's address only when proxies in front are trusted (CMS_TRUST_PROXY).
    trustProxy: config.trustProxy,
    // Requests that arrive while closing are answered by registerConnectionDrain, in the envelope.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Slow clients are cut off with 408 in the envelope (docs/configuration.md "Timeouts").
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Fastify's own HTTP server, with reads answered before routing in front of its handler
    // (early-reads.ts); never while closing, when the full chain refuses every request.
    serverFactory: (handler) => {
      const server = createServer(
        {
          headersTimeout: config.headersTimeoutMs,
          // How often Node checks the timeouts: often enough that they hold to within a second.
          connectionsCheckingInterval: checkingIntervalMs(config),
        },
        (request, response) => {
          if (closing || !early.answer(request, response)) handler(request, response);
        },
      );
      server.requestTimeout = config.requestTimeoutMs;
      server.keepAliveTimeout = config.keepAliveTimeoutMs;
      return server;
    },
    clientErrorHandler: createClientErrorHandler(() => log ?? app.log),
    // Router refusals (a path that is not valid percent-encoded UTF-8, a path segment over the
    // length limit) answer in the envelope like everything else.
    frameworkErrors: (error, _request, reply) => sendError(reply, routerError(error)),
    ajv: {
      // Unknown fields are errors, not silently dropped; query strings coerce to declared types.
      // `verbose` hands the failing schema to the error envelope, which names what is allowed.
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
        verbose: true,
      },
    },
    // Fastify's own compilers behind a first-use wrapper; its types cannot say that, hence the cast.
    ...(options.compilers
      ? { schemaController: { compilersFactory: options.compilers.compilersFactory as unknown as CompilersFactory } }
      : {}),
  }) as unknown as FastifyInstance;
  log = app.log;
  answerHalfClosedRequests(app);
  registerEmptyJsonBody(app);
  app.register(cookie);
  registerErrorEnvelope(app);
  registerRequestId(app);
  registerConnectionDrain(app, () => {
    closing = true;
  });
  return app;
}

/** Where the server puts its early answer once its modules are set up (early-reads.ts). */
export interface EarlySlot {
  answer: EarlyAnswer;
}

/**
 * A client may send its request and then shut its write side (`shutdown(SHUT_WR)`, `curl` on some
 * proxies, load-balancer health checks). Node's default then aborts a request still being handled
 * and ends the socket, so anything slower than the read of the FIN (a database query on
 * PostgreSQL) was never answered. With half-open allowed, the answer is written and the socket
 * ends after it.
 */
function answerHalfClosedRequests(app: FastifyInstance): void {
  (app.server as typeof app.server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}

/** Longest path parameter the router accepts (UUIDs, names, slugs; media file names use the wildcard). */
const MAX_PARAM_LENGTH = 200;

function routerError(error: { code?: string }): CmsError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new CmsError(
      'INVALID_INPUT',
      `A path segment is longer than ${MAX_PARAM_LENGTH} characters: ids, names and slugs are shorter.`,
      { fields: { params: `each path parameter must be at most ${MAX_PARAM_LENGTH} characters` } },
    );
  }
  return new CmsError(
    'INVALID_INPUT',
    'The URL is not valid percent-encoded UTF-8: encode "%" as "%25" and text as UTF-8 (no lone surrogates).',
    { fields: { url: 'must be valid percent-encoded UTF-8' } },
  );
}

function checkingIntervalMs(config: ServerConfig): number {
  const shortest = Math.min(config.headersTimeoutMs, config.requestTimeoutMs || config.headersTimeoutMs);
  return Math.max(25, Math.min(1000, Math.floor(shortest / 4)));
}

/**
 * `Content-Type: application/json` with an empty body means no body (clients send the header on
 * every request, also to routes that take none); any other body is parsed as JSON, with
 * `__proto__` and `constructor.prototype` keys refused as Fastify's own parser does.
 */
function registerEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/**
 * During shutdown, a request that still arrives (on a keep-alive connection that was busy when the
 * close began, or pipelined) is refused with `503 SERVICE_UNAVAILABLE` in the error envelope before
 * any access step or handler runs, so a load balancer retries it elsewhere. Answers say
 * `Connection: close`, so keep-alive sockets end with their last response instead of holding the
 * close open until the keep-alive timeout. A response whose headers went out before shutdown began
 * (a file still streaming) ends its socket when it finishes. A connection that never sent a request is
 * closed at once.
 */
function registerConnectionDrain(app: FastifyInstance, onClosing: () => void): void {
  let closing = false;
  // Node closes idle keep-alive connections on close, but not one that never sent a request (an HTTP
  // client's spare connection): that one would hold the close open until the headers timeout.
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage) => unused.delete(request.socket));
  app.addHook('preClose', async () => {
    closing = true;
    onClosing();
    for (const socket of unused) socket.destroy();
  });
  // Registered before the access hooks (registerAccessHooks runs after createApp), so it runs first.
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new CmsError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry the request.') : undefined);
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (closing) request.raw.socket?.end();
    done();
  });
}

/**
 * The access steps, in this order, before any body is parsed or handler runs:
 * 1. target guard (headers present), 2. authenticate, 3. CSRF, 4. resolve target (exists, may see),
 * 5. authorize (permissions of the action). See docs/architecture.md "Request lifecycle".
 */
export function registerAccessHooks(
  app: FastifyInstance,
  deps: { strategies: readonly AuthStrategy[]; targets: TargetResolver },
): void {
  const authenticate = createAuthenticate(deps.strategies);
  const resolveTarget = createResolveTarget(deps.targets);
  app.addHook('onRequest', async (request) => {
    request.ctx = {
      ...requestIdsOf(request),
      principal: ANONYMOUS,
      project: null,
      target: null,
      log: request.log,
    };
    targetGuard(request);
    await authenticate(request);
    csrfCheck(request);
    await resolveTarget(request);
    authorize(request);
  });
}
