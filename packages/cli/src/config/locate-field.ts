/**
 * Best-effort line of a schema error in the config source: the error path names a type by index and
 * then field names; find the type's name in the text, then each following key after it.
 */
import type { ResolvedSchema } from '@cms/core';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function indexOfKey(source: string, key: string, from: number): number {
  const pattern = new RegExp(`(^|[\\s{,])['"]?${escapeRegex(key)}['"]?\\s*[:(]`, 'gm');
  pattern.lastIndex = from;
  const match = pattern.exec(source);
  return match ? match.index + (match[1] ?? '').length : -1;
}

export function locateField(source: string, schema: ResolvedSchema, path: string): number | undefined {
  const typeMatch = path.match(/types\[(\d+)\](.*)$/);
  if (!typeMatch) return undefined;
  const type = schema.types[Number(typeMatch[1])];
  let at = -1;
  if (type?.name) {
    const quoted = new RegExp(`['"\`]${escapeRegex(type.name)}['"\`]|(^|[\\s{,])${escapeRegex(type.name)}\\s*:`, 'm');
    const found = quoted.exec(source);
    at = found ? found.index : -1;
  }
  if (at < 0) return undefined;
  const rest = (typeMatch[2] ?? '').split(/\.|\[\d+\]/).filter((part) => part && part !== 'fields' && part !== 'items');
  for (const key of rest) {
    const next = indexOfKey(source, key, at);
    if (next < 0) break;
    at = next;
  }
  return source.slice(0, at).split('\n').length;
}
