export * from './auth/scopes.js';
export * from './errors/cms-error.js';
export * from './errors/error-codes.js';
export * from './schema/index.js';
export * from './webhooks/index.js';
export * from './wire/envelopes.js';
