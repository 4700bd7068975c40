import type { ErrorCode } from '@cms/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_STEPS } from '../../src/actions/action-errors.js';
import { analyseServer, type ServerAnalysis } from '../support/raised-codes.js';
import { startTestServer } from '../support/test-server.js';

/**
 * A refusal cannot ship undeclared (docs/architecture.md "Declared errors"): every code a handler can
 * raise, found by walking its calls through the server's sources (test/support/raised-codes.ts), is
 * in the operation's `x-cms-error-codes` of the OpenAPI document, and every code a request step can
 * raise is in that step's row of `REQUEST_STEPS`. A new `throw new CmsError('X')` in a service a route
 * reaches fails here until the route contract lists `X` in its `errors` (core wire) or a step covers it.
 */

/**
 * Codes the walk finds but no request can get, each with the reason. The walk over-approximates
 * (it does not see a `catch` that turns an error into a redirect); keep this list short and exact.
 */
const NEVER_ANSWERED: Readonly<Record<string, Partial<Record<ErrorCode, string>>>> = {
  'releases.create': { NOT_FOUND: 'reads back the release it has just committed; releases are never deleted' },
  'auth.saml.acs': { NOT_FOUND: 'finishSsoInBrowser turns every refusal into a 302 to the Studio sign-in page' },
};

let analysis: ServerAnalysis;
const declared = new Map<string, Set<string>>();
beforeAll(async () => {
  const t = await startTestServer();
  try {
    const doc = (await t.request('GET', '/api/v1/openapi.json', { key: null })).body;
    for (const operations of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(operations)) {
        const codes = Object.values(op.responses as Record<string, any>).flatMap((r) => r['x-cms-error-codes'] ?? []);
        declared.set(op.operationId, new Set(codes));
      }
    }
  } finally {
    await t.close();
  }
  analysis = analyseServer();
}, 600_000);

describe('declared errors', () => {
  it('reads every action of the server and every code as a literal', () => {
    expect(analysis.unreadActions).toEqual([]);
    expect([...analysis.byAction.keys()].sort()).toEqual([...declared.keys()].sort());
    expect(analysis.opaque).toEqual([]);
  });

  it('declares in OpenAPI every code each handler can raise', () => {
    const undeclared: string[] = [];
    for (const [id, raised] of analysis.byAction) {
      for (const { code, via } of raised) {
        if (declared.get(id)?.has(code) || NEVER_ANSWERED[id]?.[code as ErrorCode]) continue;
        undeclared.push(`${id}: ${code}, raised by ${via}; add it to the route's errors (packages/core/src/wire)`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('keeps the list of codes never answered exact', () => {
    const stale = Object.entries(NEVER_ANSWERED).flatMap(([id, codes]) =>
      Object.keys(codes)
        .filter((code) => declared.get(id)?.has(code) || !analysis.byAction.get(id)?.some((r) => r.code === code))
        .map((code) => `${id}: ${code}`),
    );
    expect(stale).toEqual([]);
  });

  it('holds each request step to the codes its row declares', () => {
    // The first row's codes (the database gone, a bug) can come from anywhere, in every request.
    const everywhere = new Set<string>(REQUEST_STEPS[0]?.codes);
    const outside = REQUEST_STEPS.flatMap((step) =>
      analysis
        .codesFrom(step.source)
        .filter(({ code }) => !step.codes.includes(code as ErrorCode) && !everywhere.has(code))
        .map(({ code, via }) => `${step.source[0]?.file}: ${code}, raised by ${via}`),
    );
    expect(outside).toEqual([]);
  });
});
