import { CAPABILITY_SCOPES } from '@cms/core';
import { environmentSchema } from './environments.schemas.js';
import { projectSchema } from './projects.schemas.js';

const capabilityNames = Object.keys(CAPABILITY_SCOPES);

/** Wire shape of `GET /api/v1/me` (interface.md "Principal"). */
export const meSchema = {
  type: 'object',
  required: ['principalType', 'principalId', 'capabilities'],
  properties: {
    principalType: { type: 'string', enum: ['apiKey', 'user'] },
    principalId: { type: 'string' },
    label: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    capabilities: {
      type: 'object',
      required: capabilityNames,
      properties: Object.fromEntries(capabilityNames.map((name) => [name, { type: 'boolean' }])),
    },
  },
} as const;

const moduleManifestSchema = {
  type: 'object',
  required: ['id', 'version', 'apiVersion'],
  properties: {
    id: { type: 'string' },
    version: { type: 'string' },
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    dependsOn: { type: 'array', items: { type: 'string' } },
    minCoreVersion: { type: 'string' },
    maxCoreVersion: { type: 'string' },
  },
} as const;

/** Wire shape of `GET /api/v1/studio/bootstrap`. */
export const studioBootstrapSchema = {
  type: 'object',
  required: ['me', 'projects', 'environments', 'modules', 'extensions'],
  properties: {
    me: meSchema,
    projects: { type: 'array', items: projectSchema },
    environments: { type: 'array', items: environmentSchema },
    modules: { type: 'array', items: moduleManifestSchema },
    extensions: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
} as const;
