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
      handler: async (input, _ctx, { request }) => cliAuth.start(input, request.ip),
    }),
    defineAction({
      route: authCliChallengeRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async (input, ctx) => cliAuth.describe(ctx, input),
    }),
    defineAction({
      route: authCliAuthorizeRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async (input, ctx) => cliAuth.authorize(ctx, input),
    }),
    defineAction({
      route: authCliDenyRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async (input, ctx) => cliAuth.deny(ctx, input),
    }),
    defineAction({
      route: authCliPollRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async (input) => cliAuth.poll(input),
    }),
    defineAction({
      route: authCliExchangeRoute,
      permissions: [],
      cli: { visibility: 'hidden' },
      handler: async (input) => cliAuth.exchange(input),
    }),
  ];
}
