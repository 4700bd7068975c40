/** The caller's identity, the Studio's start-up data, and the signed-in person's own password (interface.md "Principal"). */
import { type Static, Type } from 'typebox';
import { CAPABILITY_SCOPES, type Capabilities } from '../auth/scopes.js';
import { PasswordInput } from './auth.routes.js';
import { defineRoute } from './define-route.js';
import { EnvironmentSchema } from './environments.routes.js';
import { ProjectSchema } from './projects.routes.js';
import { Nullable, StringEnum } from './shapes.js';
import { StudioExtensionSchema } from './studio-extensions.js';

const capabilityNames = Object.keys(CAPABILITY_SCOPES);

/** Every capability as a boolean. */
export const CapabilitiesSchema = Type.Unsafe<Capabilities>({
  type: 'object',
  required: capabilityNames,
  properties: Object.fromEntries(capabilityNames.map((name) => [name, { type: 'boolean' }])),
});

/** Wire shape of `GET /api/v1/me`. */
export const MeSchema = Type.Object({
  principalType: StringEnum(['apiKey', 'user']),
  principalId: Type.String(),
  label: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  role: Type.Optional(Type.String()),
  capabilities: CapabilitiesSchema,
});
export type Me = Static<typeof MeSchema>;

/** A module's manifest (interface.md "Modules"), as the server declares it and the Studio sees it. */
export const ModuleManifestSchema = Type.Object({
  id: Type.String(),
  version: Type.String(),
  apiVersion: Type.Literal('1'),
  kind: Type.Optional(StringEnum(['core', 'domain'])),
  dependsOn: Type.Optional(Type.Array(Type.String())),
  minCoreVersion: Type.Optional(Type.String()),
  maxCoreVersion: Type.Optional(Type.String()),
});
export type ModuleManifest = Static<typeof ModuleManifestSchema>;

/** Wire shape of `GET /api/v1/studio/bootstrap`. */
export const StudioBootstrapSchema = Type.Object({
  me: MeSchema,
  projects: Type.Array(ProjectSchema),
  environments: Type.Array(EnvironmentSchema),
  modules: Type.Array(ModuleManifestSchema),
  /** The modules' Studio contributions the caller may use (studio-extensions.ts). */
  extensions: Type.Array(StudioExtensionSchema),
  /**
   * The server's configured public address (`CMS_PUBLIC_URL`), null when it names itself by its
   * listen address: the Studio then writes media addresses into bodies as paths (`/media/...`).
   */
  publicUrl: Type.Optional(Nullable(Type.String())),
});
export type StudioBootstrap = Static<typeof StudioBootstrapSchema>;

export const meGetRoute = defineRoute({
  id: 'me.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/me',
  summary: 'Who the caller is and what it may do in the active project and environment',
  target: 'optional',
  request: {},
  response: { status: 200, envelope: 'single', schema: MeSchema },
});

export const studioBootstrapRoute = defineRoute({
  id: 'studio.bootstrap',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/studio/bootstrap',
  summary: 'Everything the Studio needs at start: me, projects, environments, modules, extensions',
  target: 'optional',
  request: {},
  response: { status: 200, envelope: 'single', schema: StudioBootstrapSchema },
});

/** Body of `POST /api/v1/me/password`: the password signed in with now, and the new one. */
export const PasswordChangeBodySchema = Type.Object(
  { currentPassword: PasswordInput, password: PasswordInput },
  { additionalProperties: false },
);
export type PasswordChangeBody = Static<typeof PasswordChangeBodySchema>;

/** Answer of changing one's own password: how many other sessions of the person were ended. */
export const PasswordChangedSchema = Type.Object({ changed: Type.Literal(true), otherSessionsEnded: Type.Integer() });
export type PasswordChanged = Static<typeof PasswordChangedSchema>;

export const mePasswordChangeRoute = defineRoute({
  id: 'me.password.change',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/me/password',
  summary: "Change the signed-in person's own password (proven by the current one); ends their other sessions",
  target: 'none',
  request: { body: PasswordChangeBodySchema },
  response: { status: 200, envelope: 'single', schema: PasswordChangedSchema },
  // SERVICE_UNAVAILABLE: the password-hashing line is full (503 with Retry-After, docs/access-control.md "Passwords").
  errors: ['FORBIDDEN', 'INVALID_INPUT', 'RATE_LIMITED', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'],
});
