/**
 * Studio extension points (interface.md "Modules": routes, navItems, slotWidgets, fieldKinds,
 * editorNodes, actionOverrides, settingsPanels). A first-party module declares its contributions
 * once, grouped by kind (`StudioContributions`); `GET /api/v1/studio/bootstrap` hands them to the
 * Studio as one flat list (`StudioExtension`), each tagged with its kind and module, filtered by
 * the caller's permissions. A contribution names a Studio component by a string id
 * (`media.library`); the Studio maps ids to components compiled into its build.
 */
import { type Static, Type } from 'typebox';
import { FIELD_KINDS } from '../schema/field-types.js';
import { StringEnum } from './shapes.js';

/** The slots of the Studio's pages a module may fill (interface.md, exactly these ids). */
export const STUDIO_SLOTS = [
  'dashboard.main',
  'content.list.toolbar',
  'content.editor.header.actions',
  'content.editor.sidebar',
  'settings.general',
] as const;
export type StudioSlot = (typeof STUDIO_SLOTS)[number];

/** The kinds of contribution, as keys of a module's `studio` declaration. */
export const STUDIO_CONTRIBUTION_KINDS = [
  'routes',
  'navItems',
  'slotWidgets',
  'fieldKinds',
  'editorNodes',
  'actionOverrides',
  'settingsPanels',
] as const;
export type StudioContributionKind = (typeof STUDIO_CONTRIBUTION_KINDS)[number];

/** Studio paths a module route may not take: the Studio's own pages. */
export const STUDIO_RESERVED_PATHS = ['/', '/login', '/setup', '/invite', '/cli/authorize', '/content', '/settings'];

/** Contribution and component ids: dotted lower camel words, like `media.library`. */
export const STUDIO_ID_PATTERN = '^[a-z][a-zA-Z0-9-]*(\\.[a-z][a-zA-Z0-9-]*)+$';
/** A Studio path: `/word/word`, lower case (the Studio adds its `/studio` base). */
export const STUDIO_PATH_PATTERN = '^(/[a-z0-9][a-z0-9-]*)+$';

const Id = Type.String({ pattern: STUDIO_ID_PATTERN, maxLength: 100 });
const ComponentId = Type.String({ pattern: STUDIO_ID_PATTERN, maxLength: 100 });
const StudioPath = Type.String({ pattern: STUDIO_PATH_PATTERN, maxLength: 200 });
const Label = Type.String({ minLength: 1, maxLength: 80 });

const common = {
  /** Unique among every module's contributions. */
  id: Id,
  /**
   * Permissions (scope names, as in the action catalog) the caller must hold in the active
   * project for the Studio to receive this contribution; none: everyone signed in.
   */
  permissions: Type.Optional(Type.Array(Type.String(), { maxItems: 20 })),
  /** Position among contributions of the same place, low first; then by id. */
  order: Type.Optional(Type.Integer({ minimum: -1000, maximum: 1000 })),
};

/** A page of its own, reached at `path` under the Studio. */
export const StudioRouteSchema = Type.Object(
  { ...common, path: StudioPath, title: Label, component: ComponentId },
  { additionalProperties: false },
);

/** A link in the Studio's main navigation, to a contributed route or settings panel. */
export const StudioNavItemSchema = Type.Object(
  { ...common, label: Label, to: StudioPath },
  { additionalProperties: false },
);

/** A component placed in one of the slots of the Studio's pages. */
export const StudioSlotWidgetSchema = Type.Object(
  { ...common, slot: StringEnum(STUDIO_SLOTS), title: Label, component: ComponentId },
  { additionalProperties: false },
);

/**
 * How the editor shows top-level fields of one field kind, optionally only those carrying a check
 * (a `string` with `max`): the component replaces the built-in input; the value stays the same.
 */
export const StudioFieldKindSchema = Type.Object(
  {
    ...common,
    fieldKind: StringEnum(FIELD_KINDS),
    check: Type.Optional(StringEnum(['min', 'max', 'regex', 'url', 'email'])),
    component: ComponentId,
  },
  { additionalProperties: false },
);

/** Something to insert into a document body (in the body's toolbar), for the formats listed. */
export const StudioEditorNodeSchema = Type.Object(
  {
    ...common,
    label: Label,
    formats: Type.Array(StringEnum(['md', 'mdx']), { minItems: 1, maxItems: 2, uniqueItems: true }),
    component: ComponentId,
  },
  { additionalProperties: false },
);

/** Replaces the Studio's built-in control of one action (by action id, e.g. `content.publish`). */
export const StudioActionOverrideSchema = Type.Object(
  { ...common, action: Type.String({ minLength: 1, maxLength: 100 }), component: ComponentId },
  { additionalProperties: false },
);

/** A panel of the settings area, at its own path under `/settings/`. */
export const StudioSettingsPanelSchema = Type.Object(
  {
    ...common,
    slot: StringEnum(['settings.general']),
    path: StudioPath,
    label: Label,
    description: Type.Optional(Type.String({ maxLength: 300 })),
    component: ComponentId,
  },
  { additionalProperties: false },
);

export type StudioRoute = Static<typeof StudioRouteSchema>;
export type StudioNavItem = Static<typeof StudioNavItemSchema>;
export type StudioSlotWidget = Static<typeof StudioSlotWidgetSchema>;
export type StudioFieldKind = Static<typeof StudioFieldKindSchema>;
export type StudioEditorNode = Static<typeof StudioEditorNodeSchema>;
export type StudioActionOverride = Static<typeof StudioActionOverrideSchema>;
export type StudioSettingsPanel = Static<typeof StudioSettingsPanelSchema>;

/** What a module declares (its `studio` property), every kind optional. */
export const StudioContributionsSchema = Type.Object(
  {
    routes: Type.Optional(Type.Array(StudioRouteSchema)),
    navItems: Type.Optional(Type.Array(StudioNavItemSchema)),
    slotWidgets: Type.Optional(Type.Array(StudioSlotWidgetSchema)),
    fieldKinds: Type.Optional(Type.Array(StudioFieldKindSchema)),
    editorNodes: Type.Optional(Type.Array(StudioEditorNodeSchema)),
    actionOverrides: Type.Optional(Type.Array(StudioActionOverrideSchema)),
    settingsPanels: Type.Optional(Type.Array(StudioSettingsPanelSchema)),
  },
  { additionalProperties: false },
);
export type StudioContributions = Static<typeof StudioContributionsSchema>;

/** The contribution of one kind, as declared. */
export interface StudioContributionOf {
  routes: StudioRoute;
  navItems: StudioNavItem;
  slotWidgets: StudioSlotWidget;
  fieldKinds: StudioFieldKind;
  editorNodes: StudioEditorNode;
  actionOverrides: StudioActionOverride;
  settingsPanels: StudioSettingsPanel;
}

const tagged = <K extends StudioContributionKind>(kind: K, schema: { properties: Record<string, unknown> }) =>
  Type.Unsafe<StudioContributionOf[K] & { kind: K; module: string }>({
    type: 'object',
    required: ['kind', 'module', ...Object.keys(schema.properties).filter((key) => !OPTIONAL.has(key))],
    properties: { kind: { type: 'string', const: kind }, module: { type: 'string' }, ...schema.properties },
  });
// Properties no kind requires; every other declared one is required on the wire.
const OPTIONAL = new Set(['permissions', 'order', 'check', 'description']);

/** One contribution as the Studio receives it: its kind, the module that made it, its fields. */
export const StudioExtensionSchema = Type.Union([
  tagged('routes', StudioRouteSchema),
  tagged('navItems', StudioNavItemSchema),
  tagged('slotWidgets', StudioSlotWidgetSchema),
  tagged('fieldKinds', StudioFieldKindSchema),
  tagged('editorNodes', StudioEditorNodeSchema),
  tagged('actionOverrides', StudioActionOverrideSchema),
  tagged('settingsPanels', StudioSettingsPanelSchema),
]);
export type StudioExtension = Static<typeof StudioExtensionSchema>;
