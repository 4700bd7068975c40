/**
 * Which tracked documents a command's arguments name (`cms publish`): each argument is a file or
 * folder (relative to the working folder) the manifest tracks, else a document's server path
 * (`hello-world`, `blog/2024/launch`, every locale of it) or `<type>:<path>` when several types use
 * that path. Anything else is refused with what was looked for and what comes closest.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { closestNames } from '../cli/suggest.js';
import type { ManifestEntry } from './manifest.js';
import { toRootRelative } from './paths.js';

export interface Selection {
  entries: ManifestEntry[];
}

export function selectDocuments(
  args: readonly string[],
  documents: readonly ManifestEntry[],
  where: { cwd: string; root: string; manifestFile: string },
): Selection {
  const chosen = new Map<string, ManifestEntry>();
  const problems: string[] = [];
  const hints = new Set<string>();
  for (const arg of args) {
    const file = toRootRelative(where.cwd, where.root, arg);
    const byFile = documents.filter((e) => file === '' || e.file === file || e.file.startsWith(`${file}/`));
    if (byFile.length > 0) {
      for (const e of byFile) chosen.set(e.id, e);
      continue;
    }
    const typed = /^([A-Za-z][\w-]*):(.+)$/.exec(arg);
    const serverPath = (typed ? (typed[2] as string) : arg).normalize('NFC').replace(/^\/+|\/+$/g, '');
    const byPath = documents.filter((e) => e.path === serverPath && (!typed || e.type === typed[1]));
    const types = [...new Set(byPath.map((e) => e.type))];
    if (types.length === 1) {
      for (const e of byPath) chosen.set(e.id, e);
      continue;
    }
    if (types.length > 1) {
      problems.push(`"${arg}" is the server path of documents of ${types.length} types (${types.join(', ')})`);
      hints.add(`Name one: ${types.map((t) => `\`${t}:${serverPath}\``).join(' or ')}, or pass the file.`);
      continue;
    }
    if (existsSync(resolve(where.cwd, arg))) {
      problems.push(`${file} has no document on the server yet (the manifest does not track it)`);
      hints.add('Run `cms push` first so the file has a document, then publish it.');
      continue;
    }
    // Close names: the same last segment in a file name or a path (a typo of the folder, a missing
    // prefix), else a file or server path a typo or two away.
    const last = serverPath.split('/').pop() ?? serverPath;
    const sameName = documents.filter((e) => {
      const base = (e.file.split('/').pop() ?? '').split('.')[0] ?? '';
      return base === last || e.path.endsWith(`/${serverPath}`) || serverPath.endsWith(`/${e.path}`);
    });
    const near =
      sameName.length > 0
        ? sameName.slice(0, 3).map((e) => `${e.file} (path ${e.path})`)
        : closestNames(arg.includes('/') || arg.includes('.') ? file : serverPath, [
            ...documents.map((e) => (arg.includes('/') || arg.includes('.') ? e.file : e.path)),
          ]);
    problems.push(`"${arg}" is neither a tracked file or folder nor the server path of a tracked document`);
    hints.add(
      'Pass a file (content/posts/hello.md), a folder, or a server path (hello, or post:hello); `cms status` lists what is tracked.',
    );
    if (near.length > 0) hints.add(`Did you mean ${near.join(', ')}?`);
  }
  if (problems.length > 0) {
    throw new CliError('NOT_TRACKED', `Cannot publish: ${problems.join('; ')}.`, {
      exitCode: EXIT.usage,
      hint: [...hints].join(' '),
      details: { arguments: args, manifest: where.manifestFile },
    });
  }
  return { entries: [...chosen.values()] };
}
