/**
 * "Did you mean": the known names closest to a mistyped one, by edit distance: at most a third of
 * the name's last path segment (a typo in `content/posts/helo.en.md` is in `helo.en.md`).
 */

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Up to `limit` candidates within the allowed distance (at least one edit), closest first. */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const allowed = Math.max(1, Math.floor((name.split('/').pop() ?? name).length / 3));
  const scored: Array<[string, number]> = [];
  for (const candidate of new Set(candidates)) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d <= allowed && candidate !== name) scored.push([candidate, d]);
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([candidate]) => candidate);
}
