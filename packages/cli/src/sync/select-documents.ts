/**
 * Which documents a command's arguments name (`cms publish`, `cms release add`): each argument is a
 * file or folder (relative to the working folder) the manifest tracks, else a document's server path
 * (`hello-world`, `blog/2024/launch`, every locale of it), `<type>:<path>` when several types use that
 * path, or a document id. A path or id the manifest does not know is looked up on the server (one
 * digest request), so documents created through the API or the Studio are named like any other.
 * Anything else is refused with what was looked for and what comes closest.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DigestEntry } from '@cms/core';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { closestNames } from '../cli/suggest.js';
import type { ManifestEntry } from './manifest.js';
import { toRootRelative } from './paths.js';

export interface Selection {
  entries: ManifestEntry[];
  /** Documents the manifest does not track (created through the API or the Studio), found on the server. */
  remote: DigestEntry[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An argument as a server path: `<type>:<path>` or `<path>`, without slashes around it. */
function serverPathOf(arg: string): { type: string | undefined; path: string } {
  const typed = /^([A-Za-z][\w-]*):(.+)$/.exec(arg);
  return {
    type: typed?.[1],
    path: (typed ? (typed[2] as string) : arg).normalize('NFC').replace(/^\/+|\/+$/g, ''),
  };
}

/** The server's documents an argument names by id or path; a problem when several types use the path. */
function onServer(arg: string, digest: readonly DigestEntry[]): DigestEntry[] | string {
  if (UUID.test(arg)) return digest.filter((d) => d.documentId.toLowerCase() === arg.toLowerCase());
  const { type, path } = serverPathOf(arg);
  const found = digest.filter((d) => d.path === path && (!type || d.type === type));
  const types = [...new Set(found.map((d) => d.type))];
  if (types.length > 1)
    return `"${arg}" is the server path of documents of ${types.length} types (${types.join(', ')}): name one as \`${types[0]}:${path}\``;
  return found;
}

export async function selectDocuments(
  args: readonly string[],
  documents: readonly ManifestEntry[],
  where: { cwd: string; root: string; manifestFile: string; digest?: () => Promise<DigestEntry[]> },
): Promise<Selection> {
  const chosen = new Map<string, ManifestEntry>();
  const remote = new Map<string, DigestEntry>();
  const problems: string[] = [];
  const hints = new Set<string>();
  const unknown: string[] = [];
  for (const arg of args) {
    const file = toRootRelative(where.cwd, where.root, arg);
    const byFile = documents.filter((e) => file === '' || e.file === file || e.file.startsWith(`${file}/`));
    if (byFile.length > 0) {
      for (const e of byFile) chosen.set(e.id, e);
      continue;
    }
    const { type: typedType, path: serverPath } = serverPathOf(arg);
    const byId = UUID.test(arg) ? documents.filter((e) => e.id.toLowerCase() === arg.toLowerCase()) : [];
    const byPath =
      byId.length > 0 ? byId : documents.filter((e) => e.path === serverPath && (!typedType || e.type === typedType));
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
    unknown.push(arg);
  }
  // Paths and ids the manifest does not know: the server's documents, in one request.
  const digest = unknown.length > 0 && where.digest ? await where.digest() : [];
  for (const arg of unknown) {
    const found = onServer(arg, digest);
    if (typeof found === 'string') {
      problems.push(found);
      continue;
    }
    if (found.length > 0) {
      for (const d of found) if (!chosen.has(d.documentId)) remote.set(d.documentId, d);
      continue;
    }
    const serverPath = serverPathOf(arg).path;
    const file = toRootRelative(where.cwd, where.root, arg);
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
            ...digest.map((d) => d.path),
          ]);
    problems.push(`"${arg}" is neither a tracked file or folder nor the server path of a tracked document`);
    if (where.digest) hints.add('No document on the server has that path or id either.');
    hints.add(
      'Pass a file (content/posts/hello.md), a folder, a server path (hello, or post:hello) or a document id; `cms status` lists what is tracked.',
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
  return { entries: [...chosen.values()], remote: [...remote.values()] };
}
