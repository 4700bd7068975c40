/** `cms init` on the layouts real sites use: locale folders, page bundles, shapes, majority key order. */
import { describe, expect, it } from 'vitest';
import { majorityKeyOrder } from '../../src/init/infer-fields.js';
import { inferSchema, type ScannedFile } from '../../src/init/infer-schema.js';
import { isLocaleCode } from '../../src/init/locale-codes.js';
import { findLocaleFolders } from '../../src/init/locale-layout.js';
import { fileNameOf, parseFileName, withLocaleFolders } from '../../src/sync/file-naming.js';
import { pathCollisions } from '../../src/sync/path-collisions.js';

const f = (file: string, frontmatter: Record<string, unknown> = { title: 'x' }): ScannedFile => ({ file, frontmatter });

/** Every file's document key under the inferred schema, as push will read it. */
function mapping(files: ScannedFile[]) {
  const inferred = inferSchema(files);
  const types = withLocaleFolders(inferred.types, inferred.localeFolders, inferred.locales);
  const keys = files.map((x) => ({ file: x.file, key: parseFileName(x.file, types, inferred.locales[0]) }));
  return { inferred, types, keys };
}

describe('locale codes', () => {
  it('knows language tags and refuses folder names that only look like them', () => {
    for (const code of ['en', 'de', 'pt-br', 'zh-cn', 'zh-TW', 'fr-ca']) expect(isLocaleCode(code)).toBe(true);
    for (const code of ['js', 'api', 'web', 'css', 'dev', 'v2', 'guides']) expect(isLocaleCode(code)).toBe(false);
  });

  it('finds the outermost folder holding two or more locale folders', () => {
    expect(findLocaleFolders(['docs/en/a.md', 'docs/de/a.md', 'docs/en/it/b.md', 'blog/x.md'])).toEqual(['docs']);
    expect(findLocaleFolders(['en/posts/a.md', 'pt-br/posts/a.md'])).toEqual(['']);
    expect(findLocaleFolders(['docs/en/a.md', 'docs/guide/a.md'])).toEqual([]);
  });
});

describe('cms init inference', () => {
  it('makes locale folders of a collection locales of one type, with translation siblings on one path', () => {
    const { inferred, types, keys } = mapping([
      f('src/content/docs/en/index.md'),
      f('src/content/docs/en/guides/start.md'),
      f('src/content/docs/en/reference/api.md'),
      f('src/content/docs/de/index.md'),
      f('src/content/docs/de/guides/start.md'),
      f('src/content/docs/pt-br/guides/start.md'),
      f('src/content/docs/zh-cn/index.md'),
    ]);
    expect(inferred.types.map((t) => [t.name, t.directory, t.localized])).toEqual([['doc', 'src/content/docs', true]]);
    expect(inferred.locales[0]).toBe('en');
    expect(inferred.locales.sort()).toEqual(['de', 'en', 'pt-br', 'zh-cn']);
    expect(inferred.localeFolders).toEqual(['src/content/docs']);
    expect(keys.find((k) => k.file === 'src/content/docs/de/guides/start.md')?.key).toEqual({
      type: 'doc',
      path: 'guides/start',
      locale: 'de',
      format: 'md',
    });
    expect(pathCollisions(keys.map((k) => ({ file: k.file, key: k.key as never })))).toEqual([]);
    // A new document from the server is written into its locale's folder.
    expect(fileNameOf(types[0] as never, { path: 'guides/new', locale: 'pt-br', format: 'md' })).toBe(
      'src/content/docs/pt-br/guides/new.md',
    );
  });

  it('makes locale folders at the top locales, and the folders under them types', () => {
    const { inferred, keys } = mapping([
      f('en/posts/a.md', { title: 'A', date: '2024-01-01' }),
      f('en/posts/b.md', { title: 'B', date: '2024-01-02' }),
      f('de/posts/a.md', { title: 'A', date: '2024-01-01' }),
      f('en/authors/ann.md', { name: 'Ann', bio: 'x' }),
      f('en/authors/bob.md', { name: 'Bob', bio: 'y' }),
    ]);
    expect(inferred.types.map((t) => t.name)).toEqual(['author', 'post']);
    expect(inferred.localeFolders).toEqual(['']);
    expect(keys.map((k) => `${k.key?.type}:${k.key?.path}:${k.key?.locale}`)).toEqual([
      'post:a:en',
      'post:b:en',
      'post:a:de',
      'author:ann:en',
      'author:bob:en',
    ]);
  });

  it('keeps nested index pages apart: one type, each file its own relative path', () => {
    const { inferred, keys } = mapping([
      f('glossary/index.md', { title: 'Glossary', slug: 'g' }),
      f('web/index.md', { title: 'Web', slug: 'w' }),
      f('web/api/clipboard/index.md', { title: 'Clipboard', slug: 'c' }),
      f('web/api/index.md', { title: 'API', slug: 'a' }),
      // Hugo's section page beside a leaf bundle of the same folder.
      f('web/api/_index.md', { title: 'API section', slug: 's' }),
    ]);
    expect(inferred.types.map((t) => [t.name, t.directory])).toEqual([['page', '']]);
    expect(keys.map((k) => k.key?.path)).toEqual([
      'glossary/index',
      'web/index',
      'web/api/clipboard/index',
      'web/api/index',
      'web/api/_index',
    ]);
    expect(pathCollisions(keys.map((k) => ({ file: k.file, key: k.key as never })))).toEqual([]);
  });

  it('keeps folders of different shapes as types, and merges types whose paths would collide', () => {
    const distinct = inferSchema([
      f('content/posts/a.md', { title: 'A', date: '2024-01-01', tags: ['x'] }),
      f('content/posts/b.md', { title: 'B', date: '2024-01-01' }),
      f('content/categories/news.md', { label: 'News', color: 'red' }),
      f('content/categories/tips.md', { label: 'Tips', color: 'blue' }),
    ]);
    expect(distinct.types.map((t) => [t.name, t.directory])).toEqual([
      ['category', 'content/categories'],
      ['post', 'content/posts'],
    ]);
    const colliding = mapping([
      f('a/index.md', { title: 'A', date: '2024-01-01' }),
      f('a/one.md', { title: 'One', date: '2024-01-01' }),
      f('b/index.md', { name: 'B', bio: 'x' }),
      f('b/two.md', { name: 'Two', bio: 'y' }),
    ]);
    expect(colliding.inferred.types.map((t) => t.directory)).toEqual(['']);
    expect(colliding.keys.map((k) => k.key?.path)).toEqual(['a/index', 'a/one', 'b/index', 'b/two']);
  });

  it('does not make a type of a folder with one file', () => {
    const inferred = inferSchema([
      f('content/posts/a.md', { title: 'A', date: '2024-01-01' }),
      f('content/posts/b.md', { title: 'B', date: '2024-01-01' }),
      f('content/about/index.md', { heading: 'About' }),
    ]);
    expect(inferred.types.map((t) => [t.name, t.directory])).toEqual([
      ['content', 'content'],
      ['post', 'content/posts'],
    ]);
  });

  it('orders fields as most files do, not as the first file does', () => {
    expect(
      majorityKeyOrder([
        { tags: 1, title: 1, date: 1 },
        { title: 1, date: 1, tags: 1 },
        { title: 1, date: 1, tags: 1 },
        { title: 1, tags: 1 },
      ]),
    ).toEqual(['title', 'date', 'tags']);
    const inferred = inferSchema([
      f('posts/a.md', { date: '2024-01-01', title: 'A' }),
      f('posts/b.md', { title: 'B', date: '2024-01-01' }),
      f('posts/c.md', { title: 'C', date: '2024-01-01' }),
    ]);
    expect(Object.keys(inferred.types[0]?.fields ?? {})).toEqual(['title', 'date']);
  });
});

describe('the path preflight', () => {
  it('names both files of each collision and what to change', () => {
    const collisions = pathCollisions([
      { file: 'posts/a.md', key: { type: 'post', path: 'a', locale: 'en', format: 'md' } },
      { file: 'posts/a.mdx', key: { type: 'post', path: 'a', locale: 'en', format: 'mdx' } },
      { file: 'posts/b.md', key: { type: 'post', path: 'b', locale: 'en', format: 'md' } },
      { file: 'posts/b.de.md', key: { type: 'post', path: 'b', locale: 'de', format: 'md' } },
    ]);
    expect(collisions).toEqual([{ path: 'a', locale: 'en', files: ['posts/a.md', 'posts/a.mdx'] }]);
  });
});
