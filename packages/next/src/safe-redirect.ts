/**
 * A same-site redirect only: a `redirect` parameter may never send the browser to another origin.
 * The check is on the address as the URL parser reads it, since the parser drops tabs and newlines
 * (`/\t/evil.test` reads as `//evil.test`), turns `\` into `/` and resolves dot segments, so
 * `/.//evil.test` or `/%2e%2e//evil.test` is the path `//evil.test` on the site itself. Such a path is
 * refused too: handed on as text it is a scheme-relative address again (a `Location` header, a link,
 * a router that redirects a trailing slash). The caller redirects to the URL object checked here,
 * never to a string rebuilt from its parts.
 */
export function safeRedirect(value: string | null | undefined, base: URL): URL | null {
  if (!value?.startsWith('/') || !URL.canParse(value, base.href)) return null;
  const target = new URL(value, base);
  if (target.origin !== base.origin || target.username !== '' || target.password !== '') return null;
  if (target.pathname.startsWith('//') || target.pathname.startsWith('/\\')) return null;
  return target;
}
