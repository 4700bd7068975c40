import { CmsError } from '@cms/core';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { ServerConfig } from '../config.js';
import type { TargetResolver } from '../tenancy/target-resolver.js';
import { type AuthStrategy, createAuthenticate } from './authenticate.js';
import { authorize } from './authorize.js';
import { csrfCheck } from './csrf.js';
import { registerErrorEnvelope } from './error-envelope.js';
import { ANONYMOUS } from './request-context.js';
import { generateRequestId, registerRequestId } from './request-id.js';
import { createResolveTarget } from './resolve-target.js';
import { targetGuard } from './target-guard.js';
import './fastify-types.js';

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void;
}

/** Creates the HTTP app with the cross-cutting request steps; routes are mounted afterwards. */
export function createApp(config: ServerConfig, options: { logStream?: LogStream } = {}): FastifyInstance {
  const app = Fastify({
    logger: { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: generateRequestId,
    // One line per request, written by registerRequestId when the response is done.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: config.maxBodyBytes,
    // request.ip is the client's address only when proxies in front are trusted (CMS_TRUST_PROXY).
    trustProxy: config.trustProxy,
    // Requests that arrive while closing are answered by registerConnectionDrain, in the envelope.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ajv: {
      // Unknown fields are errors, not silently dropped; query strings coerce to declared types.
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: true },
    },
  });
  app.register(cookie);
  registerErrorEnvelope(app);
  registerRequestId(app);
  registerConnectionDrain(app);
  return app;
}

/**
 * During shutdown, a request that still arrives (on a keep-alive connection that was busy when the
 * close began, or pipelined) is refused with `503 SERVICE_UNAVAILABLE` in the error envelope before
 * any access step or handler runs, so a load balancer retries it elsewhere. Answers say
 * `Connection: close`, so keep-alive sockets end with their last response instead of holding the
 * close open until the keep-alive timeout. A response whose headers went out before shutdown began
 * (a file still streaming) ends its socket when it finishes.
 */
function registerConnectionDrain(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
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
      requestId: String(request.id),
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
