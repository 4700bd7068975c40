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

/**
 * The site's address as the browser asked for it. Next.js builds `request.url` from the host name the
 * server was started with (`localhost` under `next dev`), not from the request, so a redirect made
 * from it sends a browser that opened `http://127.0.0.1:3000` to `localhost`, where the draft mode
 * cookie it was just given is not sent. The `X-Forwarded-Host` or `Host` header names the address the
 * browser used; one that is not a plain host (and port) is ignored.
 */
export function requestSite(request: Request): URL {
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  if (!host || !/^[a-z0-9.\-[\]:]+$/i.test(host)) return url;
  const asked = URL.canParse(`${url.protocol}//${host}`) ? new URL(`${url.protocol}//${host}`) : null;
  if (!asked || asked.host !== host.toLowerCase() || asked.username || asked.password) return url;
  return new URL(`${url.pathname}${url.search}`, asked);
}
