import { ROLES } from '@cms/core';
import { PROJECT_SLUG_PATTERN } from './projects.schemas.js';

/** Body of `POST /api/v1/invites`. */
export const createInviteBodySchema = {
  type: 'object',
  required: ['email', 'role'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', format: 'email', maxLength: 254 },
    role: { type: 'string', enum: ROLES },
    project: { type: 'string', pattern: PROJECT_SLUG_PATTERN },
  },
} as const;

/** Answer of `POST /api/v1/invites`: the link holds the token, shown only here. */
export const inviteSchema = {
  type: 'object',
  required: ['id', 'email', 'role', 'project', 'inviteUrl', 'expiresAt'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    project: { type: ['string', 'null'] },
    inviteUrl: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
  },
} as const;
