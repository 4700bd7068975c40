/**
 * A small history router for the Studio's few routes, with one exit guard: while a page says it
 * holds unsaved work, leaving it (link, Back, reload, closing the tab) asks first.
 */
import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useSyncExternalStore } from 'react';

export const BASE = '/studio';
const CHANGE = 'studio:navigate';

let current = readLocation();
let guardMessage: string | null = null;

function readLocation(): string {
  return `${window.location.pathname}${window.location.search}`;
}

function subscribe(listener: () => void): () => void {
  const onPop = () => {
    const next = readLocation();
    if (guardMessage && next !== current && !window.confirm(guardMessage)) {
      window.history.pushState(null, '', current);
      return;
    }
    current = next;
    listener();
  };
  window.addEventListener('popstate', onPop);
  window.addEventListener(CHANGE, listener);
  return () => {
    window.removeEventListener('popstate', onPop);
    window.removeEventListener(CHANGE, listener);
  };
}

/** The path inside the Studio (`/login`, `/content/post`), and its query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, () => current);
  const url = new URL(href, window.location.origin);
  const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) || '/' : url.pathname;
  return { path, query: url.searchParams };
}

export function href(path: string): string {
  return `${BASE}${path}`;
}

/** Goes to a Studio path; returns false when the person chose to stay on unsaved work. */
export function navigate(path: string, options: { replace?: boolean; force?: boolean } = {}): boolean {
  if (guardMessage && !options.force && !window.confirm(guardMessage)) return false;
  guardMessage = null;
  const target = href(path);
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  current = readLocation();
  window.dispatchEvent(new Event(CHANGE));
  window.scrollTo?.(0, 0);
  return true;
}

/** While `active`, every way out of the page asks before discarding the work. */
export function useExitGuard(active: boolean, message = 'You have unsaved changes. Leave and discard them?'): void {
  useEffect(() => {
    if (!active) return;
    guardMessage = message;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      if (guardMessage === message) guardMessage = null;
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active, message]);
}

export function Link({ to, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
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
    navigate(to);
  };
  return (
    <a href={href(to)} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}

/** Matches `/content/:type/:id` style patterns; returns the params or null. */
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
