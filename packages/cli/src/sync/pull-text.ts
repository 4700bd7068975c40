/**
 * What a pull writes: the frontmatter in the canonical writer's order, the text a file should hold to
 * carry the server's content, and the manifest entry of a synced document.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SchemaType } from '@cms/core';
import { type FieldShape, rootShape, shapeOfItem, shapeOfKey } from '@cms/core/source';
import type { RemoteEntry } from './classify.js';
import { patchFile, renderNewFile, splitFile } from './frontmatter.js';
import type { ManifestEntry } from './manifest.js';

/**
 * Frontmatter keys in schema order, then the rest in the server's order, at any depth (the keys of
 * object fields, also inside lists, follow their own fields): the canonical writer's order.
 */
export function orderedFrontmatter(
  type: SchemaType | undefined,
  frontmatter: Record<string, unknown>,
): Record<string, unknown> {
  return inSchemaOrder(frontmatter, rootShape(type?.fields)) as Record<string, unknown>;
}

function inSchemaOrder(value: unknown, shape: FieldShape | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => inSchemaOrder(item, shapeOfItem(shape)));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  const fields = shape?.kind === 'object' ? Object.keys(shape.fields ?? {}) : [];
  for (const key of [...fields, ...Object.keys(object)]) {
    if (key in object && !(key in ordered)) ordered[key] = inSchemaOrder(object[key], shapeOfKey(shape, key));
  }
  return ordered;
}

export function entryOf(remote: RemoteEntry): ManifestEntry {
  const { doc } = remote;
  return {
    id: doc.documentId,
    file: remote.file,
    type: doc.type,
    path: doc.path,
    locale: doc.locale,
    format: doc.format,
    translationGroupId: doc.translationGroupId,
    draftRevision: doc.draftRevision,
    publishedVersion: doc.publishedVersion,
    hash: remote.hash,
  };
}

/** The text a file should hold to carry the remote content, preserving what the user wrote where unchanged. */
export async function remoteText(
  root: string,
  existingFile: string | undefined,
  remote: RemoteEntry,
  type: SchemaType | undefined,
): Promise<string> {
  const fm = orderedFrontmatter(type, remote.doc.frontmatter ?? {});
  const body = remote.doc.body ?? '';
  if (existingFile && existsSync(join(root, existingFile))) {
    return patchFile(splitFile(await readFile(join(root, existingFile), 'utf8')), fm, body, type?.fields);
  }
  // The text the document was pushed with, patched should the server's content have moved since.
  const source = remote.doc.source;
  if (typeof source === 'string') return patchFile(splitFile(source), fm, body, type?.fields);
  return renderNewFile(fm, body, type?.fields);
}
