/**
 * A same-site path only: a `redirect` parameter may never send the browser to another origin. The
 * check is on the address as the URL parser reads it, since the parser drops tabs and newlines
 * (`/\t/evil.test` reads as `//evil.test`) and turns `\` into `/`.
 */
export function safePath(value: string | null, base: URL): string | null {
  if (!value?.startsWith('/') || !URL.canParse(value, base.href)) return null;
  const target = new URL(value, base);
  return target.origin === base.origin ? `${target.pathname}${target.search}${target.hash}` : null;
}
