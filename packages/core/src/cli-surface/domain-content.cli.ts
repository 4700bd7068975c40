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

const READ_OPTIONS = {
  type: 'the content type (its name in the schema)',
  locale: 'only this locale (en, pt-BR; __cms_default__ for documents without one)',
  draft: 'read drafts (the key needs content:read:draft) instead of published versions',
  published: 'true: only documents published at least once; false: only never-published ones',
  hasUnpublishedChanges: 'true: only documents whose draft differs from what is published; false: the others',
  resolve: 'reference fields to replace by the documents they point at (author, seo.author)',
  release: 'show what the site would show once this release (its id) is out',
  limit: 'how many to show on this page',
  offset: 'how many to skip (the next page starts at offset + limit)',
} as const;

/** A migration applied here: when, by whom, and its counts. */
export const formatAppliedMigration: CliFormatter = (data) => {
  const m = (data ?? {}) as Row;
  return [
    `${String(m.name)}: applied ${String(m.appliedAt)} to ${String(m.changed)} of ${String(m.matched)} ${String(m.type)} document(s)`,
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
      options: {
        ...READ_OPTIONS,
        path: 'only the document at this path (hello, blog/2024/launch)',
        slug: 'only documents whose slug field is this',
        isDeleted: 'true: list deleted documents instead of live ones',
        updatedSince: 'only documents changed after this time (ISO 8601)',
        sort: 'what to sort by',
        order: 'ascending or descending (default: newest first for times, a to z for path)',
      },
    },
    {
      command: 'content get',
      action: 'content.get',
      summary: 'Show one document of the server by id',
      inputMode: 'flags',
      format: formatDocument,
      options: {
        documentId: 'the id of the document (cms content list --json shows ids)',
        locale: 'the variant of its translation group in this locale',
        draft: READ_OPTIONS.draft,
        resolve: READ_OPTIONS.resolve,
        release: READ_OPTIONS.release,
      },
    },
    {
      command: 'content search',
      action: 'content.search',
      summary: 'Search the documents of the server (full text)',
      inputMode: 'flags',
      format: formatSearch,
      examples: ["cms content search --q 'release notes' --type post"],
      options: {
        ...READ_OPTIONS,
        q: 'the words to find (full text, in titles and bodies)',
        type: 'only documents of this type',
      },
    },
    {
      command: 'content migrate',
      action: 'content.migrate',
      summary: 'Run a content migration file on the server, once the config schema is the server’s',
      inputMode: 'file',
      format: formatMigration,
      preflight: ['schema-hash', 'capability:content.write'],
      examples: [
        'cms content migrate migrations/rename-author.json --dry-run',
        'cms content migrate migrations/rename-author.json',
      ],
      options: {
        file: 'the migration as JSON: { "name", "type", "operations": [...] } (docs/api.md "Content migrations")',
        dryRun: 'show how many documents would change, and a sample, without changing anything',
      },
    },
    {
      command: 'content migration',
      action: 'content.migrations.get',
      summary: 'Show whether a content migration was applied here (by name), when, and what it changed',
      inputMode: 'flags',
      format: formatAppliedMigration,
      examples: ['cms content migration 2024-06-rename-author'],
      options: { name: "the migration's name, as in its file" },
    },
    {
      command: 'media list',
      action: 'media.list',
      summary: 'List the files of the media library',
      inputMode: 'flags',
      format: formatMedia,
      options: {
        q: 'only files whose name or alt text holds these words',
        category: 'only this kind of file',
        uploadedBy: 'only files uploaded by this user (id or email)',
        uploadedFrom: 'only files uploaded on or after this day (YYYY-MM-DD)',
        uploadedTo: 'only files uploaded on or before this day (YYYY-MM-DD)',
        sort: 'what to sort by',
        order: 'ascending or descending',
        limit: READ_OPTIONS.limit,
        offset: READ_OPTIONS.offset,
      },
    },
  ],
};
