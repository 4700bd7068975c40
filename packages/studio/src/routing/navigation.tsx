/**
 * How Studio code moves around: the router itself is TanStack Router (`routing/routes.tsx` holds the
 * route tree); these few helpers keep the Studio's own path strings (`/content/post?q=x`, without the
 * `/studio` base) so pages, extensions and tests name places the same way as the address bar.
 */
import { type AnyRouter, useBlocker, useRouter, useRouterState } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, MouseEvent } from 'react';

export const BASE = '/studio';
export const DEFAULT_EXIT_MESSAGE = 'You have unsaved changes. Leave and discard them?';

// Any router, not routes.tsx's own type: that module imports every page, and the pages import this one.
let router: AnyRouter | null = null;
/** How many times a person chose to stay on unsaved work: `navigate` compares it to answer. */
let refusals = 0;

/** Called once by `createStudioRouter`: `navigate` also runs outside components (a 401 handler). */
export function bindRouter(instance: AnyRouter): void {
  router = instance;
}

/** The public address of a Studio path: `/content/post` -> `/studio/content/post`. */
export function href(path: string): string {
  return `${BASE}${path}`;
}

/** The path inside the Studio (`/login`, `/content/post`), and its query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const location = useRouterState({ select: (state) => state.location });
  return { path: location.pathname || '/', query: new URLSearchParams(location.searchStr) };
}

/**
 * Goes to a Studio path; resolves false when the person chose to stay on unsaved work. `force`
 * passes the exit guard (after a save, or a sign-out the server already did).
 */
export async function navigate(path: string, options: { replace?: boolean; force?: boolean } = {}): Promise<boolean> {
  if (!router) throw new Error('navigate() before the Studio router exists');
  const before = refusals;
  await router.navigate({ href: href(path), replace: options.replace ?? false, ignoreBlocker: options.force ?? false });
  return refusals === before;
}

/** While `active`, every way out of the page (links, Back, reload, closing the tab) asks first. */
export function useExitGuard(active: boolean, message = DEFAULT_EXIT_MESSAGE): void {
  useBlocker({
    disabled: !active,
    enableBeforeUnload: active,
    shouldBlockFn: () => {
      if (window.confirm(message)) return false;
      refusals += 1;
      return true;
    },
  });
}

/** A link to a Studio path; a plain click navigates in place, modified clicks stay the browser's. */
export function Link({ to, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const instance = useRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    void instance.navigate({ href: href(to) });
  };
  return (
    <a href={href(to)} {...rest} onClick={onClick}>
      {children}
    </a>
  );
}

/** Matches `/releases/:id` style patterns inside a contributed page's own sub-paths; params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] as string;
    const value = got[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}
