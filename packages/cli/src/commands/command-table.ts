/**
 * Every built-in command of `cms`, in the order `cms --help` lists them: name, summary, arguments,
 * options and examples, and a lazy import of the function it runs (docs/cli.md "The command table").
 * Nothing here imports a command's code: `cms --help` and `cms --version` load this table only.
 */
import type { Command } from '@commander-js/extra-typings';
import { type CommandGroup, type CommandSpec, defineCommand } from '../cli/command-spec.js';

/** Largest page `cms audit list --limit` asks for (the server's own maximum). */
export const AUDIT_MAX_LIMIT = 200;
export const DEFAULT_TYPES_FILE = 'cms.types.ts';

/** Commands that only hold sub-commands, with the summary their parent's help shows. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  { name: 'schema', summary: 'Compare and sync the content types of cms.config.ts' },
  { name: 'release', summary: 'Releases: documents published together, now or on time' },
  { name: 'audit', summary: 'The audit log: who changed what, and a check that it is whole' },
  { name: 'media', summary: 'Media files' },
  { name: 'action', summary: 'The server action catalog' },
  { name: 'env', summary: 'Environments of the project' },
];

export const COMMANDS: readonly CommandSpec[] = [
  defineCommand({
    name: 'init',
    summary:
      'Write cms.config.ts from the server schema, or infer it from the markdown here, sync it and import the files',
    examples: [
      'cms init --project docs --environment production',
      'cms init --from-files --no-import',
      'cms init --yes --no-locales',
      'cms init --locales en,de,pt-br --default-locale en',
    ],
    define: (c: Command) =>
      c
        .option('--from-files', 'infer from the markdown even when the server already has a schema')
        .option('--no-import', 'write the config and sync the schema, but do not push the files')
        .option('--force', 'overwrite an existing cms.config.ts')
        .option(
          '--locales <codes>',
          'the locales of the tree, comma-separated (en,de): only folders or suffixes with these codes are locales',
        )
        .option('--no-locales', 'no locale detection: every file is a document of its own path, none has a locale')
        .option(
          '--default-locale <code>',
          'the default locale (else the most used), and the language of files that carry no locale suffix or folder',
        ),
    run: () => import('./init.command.js').then((m) => m.init),
  }),
  defineCommand({
    name: 'login',
    summary: 'Sign in with the browser (device flow) and store a key for this server, project and environment',
    examples: ['cms login', 'cms login --no-browser', 'cms login --code 4F7Q-9KXM'],
    define: (c: Command) =>
      c
        .option('--no-browser', 'no browser here (SSH, WSL): print the address; the page shows a code to paste')
        .option('--code <code>', 'finish a sign-in started by `cms login --no-browser` with the code its page showed'),
    run: () => import('./auth.commands.js').then((m) => m.login),
  }),
  defineCommand({
    name: 'logout',
    summary: 'Revoke the stored key of this server, project and environment on the server, and forget it here',
    run: () => import('./auth.commands.js').then((m) => m.logout),
  }),
  defineCommand({
    name: 'whoami',
    summary: 'Show who the key belongs to, its capabilities, and where each setting came from',
    examples: ['cms whoami --json'],
    run: () => import('./auth.commands.js').then((m) => m.whoami),
  }),
  defineCommand({
    name: 'schema diff',
    summary: 'Show what `cms schema sync` would change; exit 1 when it would change something',
    run: () => import('./schema.commands.js').then((m) => m.schemaDiff),
  }),
  defineCommand({
    name: 'schema sync',
    summary: 'Push the config schema for this environment (shows the diff, asks, applies)',
    examples: ['cms schema sync --dry-run', 'cms schema sync --yes --environment staging'],
    define: (c: Command) => c.option('--dry-run', 'show the diff only'),
    run: () => import('./schema.commands.js').then((m) => m.schemaSync),
  }),
  defineCommand({
    name: 'pull',
    summary: 'Write server content into the markdown files (never overwrites local changes)',
    examples: ['cms pull', 'cms pull --theirs content/posts/hello.md', 'cms pull --merge'],
    define: (c: Command) =>
      c
        .option('--dry-run', 'show what would change, write nothing')
        .option('--force', 'delete files removed on the server without asking, even many')
        .option('--published', 'pull the published versions instead of drafts')
        .option('--theirs [paths...]', 'for conflicts under these paths (all without paths), take the server side')
        .option('--merge', 'write files whose edits overlap with conflict markers (still exit 5)')
        .option('--type <names...>', 'only these content types'),
    run: () => import('./sync.commands.js').then((m) => m.pullCommand),
  }),
  defineCommand({
    name: 'push',
    summary: 'Send local changes to the server (creates, updates with draftRevision, deletes)',
    examples: ['cms push --dry-run', 'cms push --publish', 'cms push --ours content/posts/hello.md'],
    define: (c: Command) =>
      c
        .option('--dry-run', 'show what would be sent, send nothing')
        .option('--force', 'delete documents whose files are gone without asking, even many')
        .option('--ours [paths...]', 'for conflicts under these paths (all without paths), overwrite the server side')
        .option('--type <names...>', 'only these content types')
        .option('--publish', 'then publish the pushed documents together, all or none'),
    run: () => import('./sync.commands.js').then((m) => m.pushCommand),
  }),
  defineCommand({
    name: 'status',
    summary: 'Compare files, manifest and server; exit 1 on any drift (for CI)',
    examples: ['cms status', 'cms status --diff --type post'],
    define: (c: Command) =>
      c
        .option('--type <names...>', 'only these content types')
        .option('--diff', 'show each change as a diff against the last sync (and whether both sides merge)'),
    run: () => import('./sync.commands.js').then((m) => m.status),
  }),
  defineCommand({
    name: 'publish',
    summary: 'Publish the documents of these files together, all or none (push them first)',
    examples: ['cms publish content/posts', 'cms publish post:hello-world --at 2026-12-01T09:00:00+01:00'],
    define: (c: Command) =>
      c
        .argument('<paths...>', 'tracked files or folders, or server paths (hello-world, post:hello-world)')
        .option('-m, --message <text>', "title of the release, named in each version's change summary")
        .option(
          '--at <time>',
          'publish at this time instead (ISO 8601 with an offset, such as 2026-12-01T09:00:00+01:00)',
        ),
    run: () => import('./content.commands.js').then((m) => m.publish),
  }),
  defineCommand({
    name: 'release create',
    summary: 'Create an open release; prints its id',
    define: (c: Command) => c.argument('<title>').option('-d, --description <text>', 'what the release is for'),
    run: () => import('./release.commands.js').then((m) => m.releaseCreate),
  }),
  defineCommand({
    name: 'release add',
    summary: 'Add the documents of these files to a release',
    define: (c: Command) =>
      c
        .argument('<id>', 'the release')
        .argument('<paths...>', 'tracked files or folders, or server paths')
        .option('--unpublish', 'the release unpublishes them instead'),
    run: () => import('./release.commands.js').then((m) => m.releaseAdd),
  }),
  defineCommand({
    name: 'release list',
    summary: 'List releases, newest first',
    define: (c: Command) =>
      c.option('--status <status>', 'only releases in this status (open, scheduled, published, failed, reverted)'),
    run: () => import('./release.commands.js').then((m) => m.releaseList),
  }),
  defineCommand({
    name: 'release show',
    summary: 'Show a release, its documents and what changed since they were added',
    define: (c: Command) => c.argument('<id>'),
    run: () => import('./release.commands.js').then((m) => m.releaseShow),
  }),
  defineCommand({
    name: 'release schedule',
    summary: 'Publish a release at a time (ISO 8601 with an offset)',
    define: (c: Command) =>
      c
        .argument('<id>')
        .argument('<time>', 'such as 2026-12-01T09:00:00+01:00')
        .option('--time-zone <zone>', 'IANA time zone to show it in (default: this machine’s)'),
    run: () => import('./release.commands.js').then((m) => m.releaseSchedule),
  }),
  defineCommand({
    name: 'release publish',
    summary: 'Publish a release now: every document or none',
    define: (c: Command) => c.argument('<id>'),
    run: () => import('./release.commands.js').then((m) => m.releasePublish),
  }),
  defineCommand({
    name: 'release revert',
    summary: 'Undo a published release: publishes the earlier versions again',
    define: (c: Command) => c.argument('<id>'),
    run: () => import('./release.commands.js').then((m) => m.releaseRevert),
  }),
  defineCommand({
    name: 'release run-due',
    summary: 'Publish the releases whose time has come, once (for hosts that sleep)',
    run: () => import('./release.commands.js').then((m) => m.releaseRunDue),
  }),
  defineCommand({
    name: 'audit list',
    summary: 'List audit entries of the project, newest first',
    examples: ['cms audit list --action content.update --from 2026-11-01T00:00:00Z'],
    define: (c: Command) =>
      c
        .option('--actor <id>', 'only entries by this user or key id')
        .option('--action <id>', 'only this action (content.update, auth.login, ...)')
        .option('--document <id>', 'only entries about this document')
        .option('--type <name>', 'only entries about documents of this type')
        .option('--from <time>', 'only entries at or after this time (ISO 8601)')
        .option('--to <time>', 'only entries before this time (ISO 8601)')
        .option('--outcome <outcome>', 'success, failure or denied')
        .option('--limit <n>', `entries per page (1-${AUDIT_MAX_LIMIT}, default 50)`)
        .option('--cursor <cursor>', 'the next page: the cursor the previous page printed'),
    run: () => import('./audit.commands.js').then((m) => m.auditList),
  }),
  defineCommand({
    name: 'audit verify',
    summary: 'Check the hash chain of the audit log; exits 1 when an entry was changed or removed',
    run: () => import('./audit.commands.js').then((m) => m.auditVerify),
  }),
  defineCommand({
    name: 'media upload',
    summary: 'Upload files to the media library',
    define: (c: Command) => c.argument('<files...>'),
    run: () => import('./misc.commands.js').then((m) => m.mediaUpload),
  }),
  defineCommand({
    name: 'migrate',
    summary: 'Apply a content migration (JSON: { name, type, operations }): dry run first, then asks',
    define: (c: Command) => c.argument('<file>').option('--dry-run', 'only show what would change'),
    run: () => import('./misc.commands.js').then((m) => m.migrate),
  }),
  defineCommand({
    name: 'action list',
    summary: 'List the actions this key may call',
    run: () => import('./misc.commands.js').then((m) => m.actionList),
  }),
  defineCommand({
    name: 'action run',
    summary: 'Call one action of the catalog; path parameters from --param, the body from --body <file>',
    examples: ['cms action run content.get --param documentId=0193…'],
    define: (c: Command) =>
      c
        .argument('<id>')
        .option('--body <file>', 'JSON request body')
        .option('--param <name=value...>', 'path parameters ({id} in the path) and, for GET, query parameters'),
    run: () => import('./misc.commands.js').then((m) => m.actionRun),
  }),
  defineCommand({
    name: 'env list',
    summary: 'List the environments',
    run: () => import('./env.commands.js').then((m) => m.envList),
  }),
  defineCommand({
    name: 'env create',
    summary: 'Create an environment',
    define: (c: Command) =>
      c.argument('<name>').option('--extends <base>', 'inherit the schema of this environment (an overlay)'),
    run: () => import('./env.commands.js').then((m) => m.envCreate),
  }),
  defineCommand({
    name: 'env clone',
    summary: 'Create an environment holding a copy of another one (schema and documents)',
    define: (c: Command) => c.argument('<source>').argument('<name>'),
    run: () => import('./env.commands.js').then((m) => m.envClone),
  }),
  defineCommand({
    name: 'env promote',
    summary: 'Copy documents of one environment into another: prints the plan, asks, applies',
    examples: ['cms env promote staging production --dry-run'],
    define: (c: Command) => c.argument('<source>').argument('<target>').option('--dry-run', 'print the plan only'),
    run: () => import('./env.commands.js').then((m) => m.envPromote),
  }),
  defineCommand({
    name: 'types',
    summary: 'Write TypeScript types of the server schema, for createClient<CmsTypes>()',
    examples: ['cms types', 'cms types --check --out src/cms.types.ts'],
    define: (c: Command) =>
      c
        .option('--out <file>', `file to write (default ${DEFAULT_TYPES_FILE})`)
        .option('--check', 'write nothing; exit 1 when the file is missing or stale'),
    run: () => import('./types.command.js').then((m) => m.types),
  }),
];
