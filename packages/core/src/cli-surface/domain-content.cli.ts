/** The command-line surface of `domain.content`: reading documents, search, media, migrations. */
import type { CliFormatter, ModuleCliSurface } from './cli-surface.js';

type Row = Record<string, unknown>;
const rows = (data: unknown): Row[] => (Array.isArray(data) ? (data as Row[]) : []);

/** One line per document: path, locale, whether it is published, its title when it has one. */
export const formatDocuments: CliFormatter = (data) => {
  const list = rows(data);
  if (list.length === 0) return ['No documents.'];
  return list.map((doc) => {
    const title = (doc.frontmatter as Row | undefined)?.title;
    const state = doc.publishedVersion ? 'published' : 'draft';
    return `${String(doc.path).padEnd(32)} ${String(doc.locale ?? '').padEnd(8)} ${state.padEnd(9)}${title ? ` ${String(title)}` : ''}`;
  });
};

/** A document: its path, type, locale and each frontmatter field. */
export const formatDocument: CliFormatter = (data) => {
  const doc = (data ?? {}) as Row;
  return [
    `${String(doc.type)} ${String(doc.path)}${doc.locale ? ` (${String(doc.locale)})` : ''}  id ${String(doc.documentId)}`,
    ...Object.entries((doc.frontmatter ?? {}) as Row).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`),
  ];
};

/** Two lines per hit: type, path and title (when it has one), then the snippet (matches between « »). */
export const formatSearch: CliFormatter = (data) => {
  const list = rows(data);
  if (list.length === 0) return ['No matches.'];
  return list.flatMap((hit) => [
    `${String(hit.type)}:${String(hit.path)}${typeof hit.title === 'string' ? `  ${hit.title}` : ''}`,
    `  ${String(hit.snippet ?? '')}`,
  ]);
};

/** One line per file: size, type and address. */
export const formatMedia: CliFormatter = (data) => {
  const list = rows(data);
  if (list.length === 0) return ['No media files.'];
  return list.map(
    (asset) =>
      `${String(asset.filename).padEnd(32)} ${String(asset.sizeBytes).padStart(10)} B  ${String(asset.mimeType ?? '')}  ${String(asset.url ?? '')}`,
  );
};

/** What a migration changed (or would change, dry run). */
export const formatMigration: CliFormatter = (data) => {
  const result = (data ?? {}) as Row;
  return [
    `${String(result.name)}: ${String(result.changed)} of ${String(result.matched)} ${String(result.type)} document(s) ${result.dryRun ? 'would change' : 'changed'}`,
  ];
};

export const domainContentCli: ModuleCliSurface = {
  moduleId: 'domain.content',
  aliases: [
    {
      command: 'content list',
      action: 'content.list',
      summary: 'List documents of a type on the server (published by default, drafts with --draft)',
      inputMode: 'flags',
      format: formatDocuments,
      examples: ['cms content list --type post --draft', 'cms content list --type post --locale fr --limit 10'],
    },
    {
      command: 'content get',
      action: 'content.get',
      summary: 'Show one document of the server by id',
      inputMode: 'flags',
      format: formatDocument,
    },
    {
      command: 'content search',
      action: 'content.search',
      summary: 'Search the documents of the server (full text)',
      inputMode: 'flags',
      format: formatSearch,
      examples: ["cms content search --q 'release notes' --type post"],
    },
    {
      command: 'content migrate',
      action: 'content.migrate',
      summary: 'Run a content migration file on the server, once the config schema is the server’s',
      inputMode: 'file',
      format: formatMigration,
      preflight: ['schema-hash', 'capability:content.write'],
      examples: ['cms content migrate migrations/rename-author.json'],
    },
    {
      command: 'media list',
      action: 'media.list',
      summary: 'List the files of the media library',
      inputMode: 'flags',
      format: formatMedia,
    },
  ],
};
