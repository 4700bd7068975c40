/**
 * The contributions the bootstrap handed this Studio, by kind, keeping only those whose component
 * this build has (the others are skipped once with a console warning).
 */
import type { StudioContributionKind, StudioExtension } from '@cms/core';
import { type LazyExoticComponent, useContext, useEffect, useMemo } from 'react';
import { useStudio } from '../state/studio-context.js';
import { type AnyComponent, type StudioComponents, StudioComponentsContext } from './registry.js';

export type ExtensionOf<K extends StudioContributionKind> = Extract<StudioExtension, { kind: K }>;

export type Resolved<K extends StudioContributionKind> = ExtensionOf<K> & {
  Component: LazyExoticComponent<AnyComponent>;
};

const warned = new Set<string>();

/** Is the component in this build? Warns once per contribution when it is not. */
function componentOf(
  extension: StudioExtension,
  components: StudioComponents,
): Resolved<StudioContributionKind>['Component'] | null {
  if (!('component' in extension)) return null;
  const found = components[extension.component];
  if (found) return found;
  if (!warned.has(extension.id)) {
    warned.add(extension.id);
    console.warn(
      `Studio: skipping ${extension.kind} "${extension.id}" of module "${extension.module}": component "${extension.component}" is not in this Studio build (a newer server?).`,
    );
  }
  return null;
}

function byOrder(a: StudioExtension, b: StudioExtension): number {
  return (a.order ?? 0) - (b.order ?? 0) || a.id.localeCompare(b.id);
}

/** Every contribution of the bootstrap (as the server sent them). */
export function useAllExtensions(): StudioExtension[] {
  const { bootstrap } = useStudio();
  return (bootstrap.extensions ?? []) as StudioExtension[];
}

/**
 * Once per bootstrap: warns about the contributions this build lacks. Nothing is loaded here: each
 * component's chunk is fetched when a page first shows it, so a page loads only what it shows.
 */
export function useCheckedExtensions(): void {
  const all = useAllExtensions();
  const components = useContext(StudioComponentsContext);
  useEffect(() => {
    for (const extension of all) componentOf(extension, components);
  }, [all, components]);
}

/** The contributions of one kind that this build can render, in order. */
export function useExtensions<K extends Exclude<StudioContributionKind, 'navItems'>>(kind: K): Resolved<K>[] {
  const all = useAllExtensions();
  const components = useContext(StudioComponentsContext);
  return useMemo(() => {
    const list: Resolved<K>[] = [];
    for (const extension of [...all].sort(byOrder)) {
      if (extension.kind !== kind) continue;
      const Component = componentOf(extension, components);
      if (Component) list.push({ ...(extension as ExtensionOf<K>), Component });
    }
    return list;
  }, [all, kind, components]);
}

/** Navigation items whose target this build can show (a contributed route or settings panel it has). */
export function useNavItems(): ExtensionOf<'navItems'>[] {
  const routes = useExtensions('routes');
  const panels = useExtensions('settingsPanels');
  const all = useAllExtensions();
  return useMemo(() => {
    const reachable = new Set([...routes, ...panels].map((target) => target.path));
    return all.filter((e): e is ExtensionOf<'navItems'> => e.kind === 'navItems' && reachable.has(e.to)).sort(byOrder);
  }, [all, routes, panels]);
}
