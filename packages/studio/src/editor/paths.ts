/**
 * Reading and writing frontmatter values by path without disturbing anything else: untouched keys
 * keep their values (same objects, same JSON types) and their order; a cleared optional field is
 * removed rather than sent as an empty string.
 */
export type Path = readonly (string | number)[];

export function getAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A copy of `root` with the value at `path` replaced (`undefined` removes an object key). */
export function setAt<T>(root: T, path: Path, next: unknown): T {
  if (path.length === 0) return next as T;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[key as number] = setAt(copy[key as number], rest, next);
    return copy as T;
  }
  const base = root !== null && typeof root === 'object' ? (root as Record<string, unknown>) : {};
  const child = setAt(base[key as string], rest, next);
  if (child === undefined && rest.length === 0) {
    const { [key as string]: _removed, ...others } = base;
    return others as T;
  }
  return { ...base, [key]: child } as T;
}

/** `frontmatter.seo.tags[2]` for the path `['seo', 'tags', 2]`, as the server names fields. */
export function errorKey(path: Path): string {
  let key = 'frontmatter';
  for (const part of path) key += typeof part === 'number' ? `[${part}]` : `.${part}`;
  return key;
}

/** Same JSON, key order included: what "changed" means for the dirty check. */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
