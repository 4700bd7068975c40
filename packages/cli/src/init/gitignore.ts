/**
 * `cms init` keeps the `.cms/` folder's caches out of git: the kept texts of the last sync
 * (`.cms/*.base/`), a development key and, when a server runs here, its embedded database and media
 * (`CMS_DATA_DIR` defaults to `./.cms`). Only the manifests (`.cms/<project>.<environment>.json`)
 * travel with the files (docs/cli.md "Files and the manifest").
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const GITIGNORE_LINES = ['.cms/*', '!.cms/*.*.json'];
const HEADER = "# cms: the manifests in .cms/ are committed, its caches (and a local server's data) are not";

/** Adds the entry to `<dir>/.gitignore` unless it already names `.cms`; says whether it wrote. */
export async function ensureGitignore(dir: string): Promise<boolean> {
  const file = join(dir, '.gitignore');
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text.split(/\r?\n/).some((line) => /^\/?\.cms(\/|$)/.test(line.trim()))) return false;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const gap = text === '' || text.endsWith('\n') ? '' : eol;
  await writeFile(file, `${text}${gap}${text ? eol : ''}${[HEADER, ...GITIGNORE_LINES].join(eol)}${eol}`);
  return true;
}
