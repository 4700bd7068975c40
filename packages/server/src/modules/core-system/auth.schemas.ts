/** Bounds request strings before any work is done on them (the password rules live in the service). */
const PASSWORD_INPUT = { type: 'string', maxLength: 4096 } as const;
const EMAIL_INPUT = { type: 'string', minLength: 1, maxLength: 320 } as const;
const TOKEN_INPUT = { type: 'string', minLength: 1, maxLength: 200 } as const;

/** Body of `POST /api/v1/auth/login`. */
export const loginBodySchema = {
  type: 'object',
  required: ['email', 'password'],
  additionalProperties: false,
  properties: { email: EMAIL_INPUT, password: PASSWORD_INPUT },
} as const;

/** Body of `POST /api/v1/setup`. */
export const setupBodySchema = {
  type: 'object',
  required: ['token', 'email', 'password'],
  additionalProperties: false,
  properties: {
    token: TOKEN_INPUT,
    email: { type: 'string', format: 'email', maxLength: 254 },
    password: PASSWORD_INPUT,
  },
} as const;

/** Body of `POST /api/v1/invites/accept`. */
export const acceptInviteBodySchema = {
  type: 'object',
  required: ['token', 'password'],
  additionalProperties: false,
  properties: { token: TOKEN_INPUT, password: PASSWORD_INPUT },
} as const;

/** Wire shape of a session (interface.md "Session") with listing extras. */
export const sessionSchema = {
  type: 'object',
  required: ['id', 'userId', 'email', 'issuedAt', 'expiresAt', 'lastSeenAt', 'userAgent', 'ipAddress', 'current'],
  properties: {
    id: { type: 'string' },
    userId: { type: 'string' },
    email: { type: 'string' },
    issuedAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: 'string', format: 'date-time' },
    lastSeenAt: { type: 'string', format: 'date-time' },
    userAgent: { type: ['string', 'null'] },
    ipAddress: { type: ['string', 'null'] },
    current: { type: 'boolean' },
  },
} as const;

/** `{ session }`: the answer of login, setup and invite acceptance. */
export const sessionEnvelopeSchema = {
  type: 'object',
  required: ['session'],
  properties: { session: sessionSchema },
} as const;

/** Path of `DELETE /api/v1/auth/sessions/{id}`. */
export const sessionIdParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

/** Answer of ending a session. */
export const sessionEndedSchema = {
  type: 'object',
  required: ['deleted', 'id', 'current'],
  properties: { deleted: { type: 'boolean' }, id: { type: 'string' }, current: { type: 'boolean' } },
} as const;

/** Answer of logout. */
export const logoutSchema = {
  type: 'object',
  required: ['success'],
  properties: { success: { type: 'boolean' } },
} as const;
