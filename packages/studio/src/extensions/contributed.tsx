/**
 * Rendering the other kinds of contribution: pages (routes), action overrides, field kinds and
 * editor nodes. Pages ask here; each answers null when no module contributes, and the page keeps
 * its built-in behaviour.
 */
import type { FieldMetadata } from '@cms/core/frontmatter';
import { type ReactElement, useCallback } from 'react';
import { Loading } from '../ui/notice.js';
import { ExtensionFrame } from './extension-boundary.js';
import type { ActionOverrideProps, EditorNodeProps, FieldKindProps } from './props.js';
import { type Resolved, useExtensions } from './use-extensions.js';

/** Does a contributed page at `base` own `path`: the page itself or a path below it (`/media/<id>`)? */
export function ownsPath(base: string, path: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The contributed page that owns `path` (the longest matching base), or null. A page reads the
 * rest of the address itself (`useLocation()`), for its own sub-pages.
 */
export function useContributedRoute(path: string): Resolved<'routes'> | null {
  const owners = useExtensions('routes').filter((route) => ownsPath(route.path, path));
  return owners.sort((a, b) => b.path.length - a.path.length)[0] ?? null;
}

/** Renders a contributed route or settings panel. */
export function ContributedPage({ page }: { page: Resolved<'routes'> | Resolved<'settingsPanels'> }) {
  const name = 'title' in page ? page.title : page.label;
  return (
    <ExtensionFrame name={name} fallback={<Loading />}>
      <page.Component />
    </ExtensionFrame>
  );
}

/** The component replacing the built-in control of `action`, or null. */
export function useActionOverride<A extends keyof ActionOverrideProps>(
  action: A,
): ((props: ActionOverrideProps[A]) => ReactElement) | null {
  const override = useExtensions('actionOverrides').find((candidate) => candidate.action === action);
  const render = useCallback(
    (props: ActionOverrideProps[A]) => {
      const Component = override?.Component;
      if (!Component) return <span hidden />;
      return (
        <ExtensionFrame name={action}>
          <Component {...props} />
        </ExtensionFrame>
      );
    },
    [override, action],
  );
  return override ? render : null;
}

/** For a field, the contributed field kind that shows it (first match), or null. */
export function useFieldKinds(): (field: FieldMetadata) => Resolved<'fieldKinds'> | null {
  const kinds = useExtensions('fieldKinds');
  return useCallback(
    (field: FieldMetadata) =>
      kinds.find(
        (kind) =>
          kind.fieldKind === field.kind && (!kind.check || (field.checks ?? []).some((c) => c.type === kind.check)),
      ) ?? null,
    [kinds],
  );
}

/** Renders a field through its contributed kind. */
export function ContributedField({ kind, ...props }: FieldKindProps & { kind: Resolved<'fieldKinds'> }) {
  return (
    <ExtensionFrame name={props.name}>
      <kind.Component {...props} />
    </ExtensionFrame>
  );
}

/** The body toolbar's contributed insert controls for this format. */
export function EditorNodes({ format, insert }: Omit<EditorNodeProps, 'label'>) {
  const nodes = useExtensions('editorNodes').filter((node) => node.formats.includes(format));
  return (
    <>
      {nodes.map(({ id, label, Component }) => (
        <ExtensionFrame key={id} name={label}>
          <Component label={label} format={format} insert={insert} />
        </ExtensionFrame>
      ))}
    </>
  );
}
