import {
  meMfaConfirmRoute,
  meMfaDisableRoute,
  meMfaEnrolRoute,
  meMfaGetRoute,
  meMfaRecoveryCodesRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../actions/define-action.js';
import { attemptSourceOf } from './device-cookies.js';
import type { MfaService } from './mfa.service.js';

const HIDDEN = { visibility: 'hidden' } as const;

/** The caller's own second factor (decisions.md §8): only signed-in users have one. */
export function mfaActions(mfa: MfaService): AnyAction[] {
  return [
    defineAction({
      route: meMfaGetRoute,
      permissions: [],
      // A person's own sessions only: an API key (what the CLI holds) is FORBIDDEN here.
      cli: HIDDEN,
      handler: async (_input, ctx) => mfa.status(ctx),
    }),
    defineAction({
      route: meMfaEnrolRoute,
      permissions: [],
      // A person's own sessions only: an API key (what the CLI holds) is FORBIDDEN here.
      cli: HIDDEN,
      handler: async (_input, ctx) => mfa.enrol(ctx),
    }),
    defineAction({
      route: meMfaConfirmRoute,
      permissions: [],
      // A person's own sessions only: an API key (what the CLI holds) is FORBIDDEN here.
      cli: HIDDEN,
      handler: async (input, ctx, { request }) => mfa.confirm(ctx, input, attemptSourceOf(request)),
    }),
    defineAction({
      route: meMfaRecoveryCodesRoute,
      permissions: [],
      // A person's own sessions only: an API key (what the CLI holds) is FORBIDDEN here.
      cli: HIDDEN,
      handler: async (input, ctx, { request }) => mfa.renewRecoveryCodes(ctx, input, attemptSourceOf(request)),
    }),
    defineAction({
      route: meMfaDisableRoute,
      permissions: [],
      // A person's own sessions only: an API key (what the CLI holds) is FORBIDDEN here.
      cli: HIDDEN,
      handler: async (input, ctx, { request }) => mfa.disable(ctx, input, attemptSourceOf(request)),
    }),
  ];
}
