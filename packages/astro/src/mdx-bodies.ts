/**
 * MDX bodies rendered by the site's own MDX integration. Astro compiles MDX from files (with the site's
 * remark and rehype plugins, and the `components` given to `<Content />`), so each `mdx` document's body
 * is written to a file under the site (default `.astro/cms-mdx/<collection>/<entry id>.mdx`) and its entry
 * points at it with `deferredRender`, as Astro's own `glob` loader does: `render(entry)` then imports it
 * like any MDX page, `import` statements in the body included (they resolve from that file, so use the
 * site's aliases, such as `~/components/...`, or choose `mdxDirectory` so relative imports resolve).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';

/** Default folder, under the site's root, of the MDX bodies' files. */
export const DEFAULT_MDX_DIRECTORY = '.astro/cms-mdx';

/** True when the site has Astro's MDX integration (`@astrojs/mdx`), which compiles the files. */
export function hasMdxIntegration(ctx: LoaderContext): boolean {
  return ctx.config.integrations.some((integration) => integration.name === '@astrojs/mdx');
}

/** The files of one collection's MDX bodies. */
export class MdxBodies {
  private readonly root: string;
  private readonly folder: string;

  constructor(ctx: LoaderContext, directory: string) {
    this.root = fileURLToPath(ctx.config.root);
    this.folder = join(this.root, directory, ctx.collection);
  }

  /** The site-relative path of an entry's file (`filePath` of the entry). */
  filePath(id: string): string {
    return relative(this.root, join(this.folder, `${id}.mdx`))
      .split('\\')
      .join('/');
  }

  /** Whether the entry's file is there (a build cache may outlive the folder). */
  has(id: string): boolean {
    return existsSync(join(this.folder, `${id}.mdx`));
  }

  /** Writes the body; answers the entry's `filePath`. */
  async write(id: string, body: string): Promise<string> {
    const file = join(this.folder, `${id}.mdx`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
    return this.filePath(id);
  }

  /** Removes the file of an entry that left the collection. */
  async remove(id: string): Promise<void> {
    await rm(join(this.folder, `${id}.mdx`), { force: true });
  }
}
