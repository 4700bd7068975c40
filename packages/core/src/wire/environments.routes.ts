/** Environment routes (interface.md "Environment", "Target routing"); promotion is in promote.routes. */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { ENVIRONMENT_NAME_PATTERN, Nullable, Timestamp } from './shapes.js';

/** Wire shape of an environment. */
export const EnvironmentSchema = Type.Object({
  name: Type.String(),
  extends: Nullable(Type.String()),
  isDefault: Type.Boolean(),
  createdAt: Timestamp,
});
export type Environment = Static<typeof EnvironmentSchema>;

const EnvironmentName = Type.String({ pattern: ENVIRONMENT_NAME_PATTERN });

/** Body of `POST /api/v1/environments`; unknown properties are INVALID_INPUT. */
export const CreateEnvironmentBodySchema = Type.Object(
  { name: EnvironmentName, extends: Type.Optional(EnvironmentName), cloneFrom: Type.Optional(EnvironmentName) },
  { additionalProperties: false },
);

/** Path of `DELETE /api/v1/environments/{name}`. */
export const EnvironmentNameParamsSchema = Type.Object({ name: EnvironmentName });

/** Answer of deleting an environment. */
export const EnvironmentDeletedSchema = Type.Object({ deleted: Type.Boolean(), name: Type.String() });

export const environmentsListRoute = defineRoute({
  id: 'environments.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/environments',
  summary: "List the project's environments",
  // interface.md "Target routing" §3: the listing needs only the project header.
  target: 'project',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(EnvironmentSchema) },
});

export const environmentsCreateRoute = defineRoute({
  id: 'environments.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/environments',
  summary: 'Create an environment in the project, optionally extending or cloning another one',
  target: 'project',
  request: { body: CreateEnvironmentBodySchema },
  response: { status: 201, envelope: 'single', schema: EnvironmentSchema },
  errors: ['CONFLICT'],
});

export const environmentsDeleteRoute = defineRoute({
  id: 'environments.delete',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/environments/{name}',
  summary: 'Delete an environment and everything in it (not the default one)',
  target: 'project',
  request: { params: EnvironmentNameParamsSchema },
  response: { status: 200, envelope: 'single', schema: EnvironmentDeletedSchema },
  errors: ['ENVIRONMENT_NOT_FOUND'],
});
