import { relative, resolve, sep } from 'node:path';

/** A path typed by the user (relative to the working folder) as a content-root-relative NFC name. */
export function toRootRelative(cwd: string, root: string, path: string): string {
  return relative(root, resolve(cwd, path)).split(sep).join('/').normalize('NFC');
}
