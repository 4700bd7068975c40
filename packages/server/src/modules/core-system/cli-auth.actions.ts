import {
  authCliAuthorizeRoute,
  authCliChallengeRoute,
  authCliDenyRoute,
  authCliExchangeRoute,
  authCliPollRoute,
  authCliStartRoute,
} from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { CliAuthService } from './cli-auth.service.js';

/** The command-line device flow: start, describe, authorize or deny, poll, exchange. */
export function cliAuthActions(cliAuth: CliAuthService) {
  return [
    defineAction({
      route: authCliStartRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ body }, _ctx, { request }) => cliAuth.start(body, request.ip),
    }),
    defineAction({
      route: authCliChallengeRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ params }, ctx) => cliAuth.describe(ctx, params.id),
    }),
    defineAction({
      route: authCliAuthorizeRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ body }, ctx) => cliAuth.authorize(ctx, body.challengeId),
    }),
    defineAction({
      route: authCliDenyRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ body }, ctx) => cliAuth.deny(ctx, body.challengeId),
    }),
    defineAction({
      route: authCliPollRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ body }) => cliAuth.poll(body.challengeId),
    }),
    defineAction({
      route: authCliExchangeRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async ({ body }) => cliAuth.exchange(body),
    }),
  ];
}
