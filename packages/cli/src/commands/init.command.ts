/**
 * `cms init`: writes a typed cms.config.ts. Against a server that already has a schema, from that
 * schema; otherwise from the markdown in this folder (types from folders, fields from frontmatter,
 * locales from the tree's structure, asked about when uncertain), then syncs the schema and imports the
 * files (locale siblings become one translation group).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../cli/context.js';
import { createContext } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { ask, confirm } from '../cli/prompt.js';
import type { CommandResult } from '../cli/run-command.js';
import { findMarkdown } from '../init/find-markdown.js';
import { ensureGitignore } from '../init/gitignore.js';
import { inferSchema, type ScannedFile } from '../init/infer-schema.js';
import { chooseLocales, type LocaleFlags, printLocaleReport, settleUnlocalized } from '../init/locale-choice.js';
import { detectLocales } from '../init/locale-layout.js';
import { localeData, localeNaming } from '../init/locale-naming.js';
import { renderConfig } from '../init/write-config.js';
import { parseFileName, withLocaleFolders } from '../sync/file-naming.js';
import { assertDistinctPaths } from '../sync/path-collisions.js';
import { push } from '../sync/push.js';

/** `cms init`. */
export async function init(
  ctx: Context,
  opts: { fromFiles?: boolean; import: boolean; force?: boolean } & LocaleFlags,
): Promise<CommandResult> {
  const o = opts as { fromFiles?: boolean; import: boolean; force?: boolean } & LocaleFlags;
  const target = join(ctx.cwd, 'cms.config.ts');
  const existing = ['cms.config.ts', 'cms.config.mts', 'cms.config.mjs', 'cms.config.js'].find((f) =>
    existsSync(join(ctx.cwd, f)),
  );
  if (existing && !o.force) {
    throw new CliError('CONFIG_EXISTS', `${existing} already exists here.`, {
      exitCode: EXIT.usage,
      hint: 'Pass --force to replace it.',
    });
  }
  const project = ctx.settings.project ?? (await ask(ctx.prompt, 'Project slug', 'default', '--project'));
  const environment = ctx.settings.environment ?? (await ask(ctx.prompt, 'Environment', 'production', '--environment'));
  ctx.settings.project = project;
  ctx.settings.environment = environment;
  const api = await ctx.api();
  const server = await api.schema.get();
  if (server.types.length > 0 && !o.fromFiles) {
    // The locales of the config the schema was synced from (default first); none from a server
    // that does not say (older, or synced by another client): the config's default then applies.
    const locales = server.locales
      ? [server.locales.default, ...server.locales.supported.filter((l) => l !== server.locales?.default)]
      : [];
    await writeFile(target, renderConfig({ types: server.types, locales, project, environment }));
    await ensureGitignore(ctx.cwd);
    ctx.out.log(
      `Wrote cms.config.ts from the server schema (${server.types.length} type(s)${
        locales.length ? `, locales ${locales.join(', ')}` : ''
      }). Run \`cms pull\` to fetch the content.`,
    );
    return { data: { source: 'server', config: target, types: server.types.map((t) => t.name), locales } };
  }
  const files: ScannedFile[] = await findMarkdown(ctx.cwd);
  const detection = detectLocales(files.map((f) => f.file));
  let choice = await chooseLocales(ctx, detection, o);
  let inferred = inferSchema(files, choice.accepted);
  const settled = await settleUnlocalized(ctx, choice, inferred.unlocalized);
  if (settled.accepted !== choice.accepted) inferred = inferSchema(files, settled.accepted);
  choice = settled;
  if (inferred.types.length === 0) {
    throw new CliError('NOTHING_TO_INFER', 'No markdown files in sub-folders here, and the server has no schema.', {
      exitCode: EXIT.usage,
      hint: 'Run cms init in the folder that holds your content folders (for example content/posts/*.md).',
    });
  }
  const naming = localeNaming(inferred, choice);
  // The mapping push will use: every file one distinct document, or nothing is written.
  const fileTypes = withLocaleFolders(naming.types, inferred.localeFolders, naming.locales, {
    declared: naming.locales.length > 0,
    markDefaultLocale: naming.markDefaultLocale,
  });
  const mapped = files.flatMap((f) => {
    const key = parseFileName(f.file, fileTypes, naming.locales[0]);
    return key ? [{ file: f.file, key }] : [];
  });
  assertDistinctPaths(mapped);
  for (const type of naming.types) {
    const count = mapped.filter((m) => m.key.type === type.name).length;
    ctx.out.line(
      `${type.name.padEnd(16)} ${type.directory || '.'}/ (${count} file(s)${type.localized ? ', localized' : ''}): ${
        Object.entries(type.fields)
          .map(([n, f]) => `${n}:${f.kind}${f.required ? '!' : ''}`)
          .join(', ') || 'no fields'
      }`,
    );
  }
  printLocaleReport(ctx, detection, choice);
  if (naming.locales.length)
    ctx.out.line(
      `locales: ${naming.locales.join(', ')} (default ${naming.locales[0]}: ${naming.defaultReason}; --default-locale sets it)`,
    );
  if (inferred.ignored.length) ctx.out.log(`Not imported (top-level files): ${inferred.ignored.join(', ')}`);
  ctx.out.log('Check what was inferred above before pushing: the locales decide under which names files come back.');
  if (
    !(await confirm(
      ctx.prompt,
      `Write cms.config.ts with ${inferred.types.length} type(s)${o.import ? ', sync the schema and import the files' : ' and sync the schema'}?`,
    ))
  ) {
    return { data: { cancelled: true }, exitCode: EXIT.cancelled };
  }
  await writeFile(
    target,
    renderConfig({
      types: naming.types,
      locales: naming.locales,
      localeFolders: inferred.localeFolders,
      ...(naming.markDefaultLocale === false ? { markDefaultLocale: false } : {}),
      project,
      environment,
    }),
  );
  if (await ensureGitignore(ctx.cwd))
    ctx.out.log('Added .cms/ caches to .gitignore (the manifests in .cms/ are committed).');
  // A fresh context loads the config just written, exactly as later commands will.
  const next = await createContext({ ...ctx.flags, project, environment, yes: true });
  const config = next.requireConfig();
  const resolved = config.resolve(environment);
  const synced = await (await next.api()).schema.sync({
    rawConfigSnapshot: resolved.rawConfigSnapshot,
    resolvedSchema: resolved.resolvedSchema,
    schemaHash: resolved.schemaHash,
  });
  ctx.out.log(`Schema synced: ${synced.typesCount} type(s).`);
  const written = {
    source: 'files',
    config: target,
    types: inferred.types.map((t) => t.name),
    locales: naming.locales,
    localeFolders: inferred.localeFolders,
    localeEvidence: localeData(choice),
  };
  if (!o.import) return { data: { ...written, imported: false } };
  const report = await push(next, {});
  ctx.out.log(
    `Imported ${report.summary.created} document(s)${report.summary.failed ? `, ${report.summary.failed} failed` : ''}.`,
  );
  for (const r of report.results.filter((x) => x.outcome === 'failed'))
    ctx.out.line(`failed ${r.file}: ${r.code}: ${r.message}`);
  return {
    data: { ...written, import: report },
    exitCode: report.summary.failed > 0 ? EXIT.failure : EXIT.ok,
  };
}
