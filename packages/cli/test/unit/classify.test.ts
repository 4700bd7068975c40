import type { SchemaType } from '@cms/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RemoteDocument } from '../../src/api/cms-api.js';
import { classify, type RemoteEntry } from '../../src/sync/classify.js';
import { caseFoldCollisions, fileNameOf, parseFileName } from '../../src/sync/file-naming.js';
import type { LocalFile } from '../../src/sync/local-files.js';
import type { ManifestEntry } from '../../src/sync/manifest.js';

const post: SchemaType = { name: 'post', directory: 'content/posts', localized: true, fields: {} };
const page: SchemaType = { name: 'page', directory: 'pages', localized: false, fields: {} };

describe('file naming', () => {
  it('maps documents to <directory>/<path>[.<locale>].md|mdx and back', () => {
    expect(fileNameOf(post, { path: 'a/b', locale: 'fr', format: 'md' })).toBe('content/posts/a/b.fr.md');
    expect(fileNameOf(page, { path: 'about', locale: '__cms_default__', format: 'mdx' })).toBe('pages/about.mdx');
    expect(parseFileName('content/posts/a/b.fr.md', [post, page])).toEqual({
      type: 'post',
      path: 'a/b',
      locale: 'fr',
      format: 'md',
    });
    expect(parseFileName('pages/about.mdx', [post, page])).toEqual({
      type: 'page',
      path: 'about',
      locale: '__cms_default__',
      format: 'mdx',
    });
    expect(parseFileName('pages/notes.txt', [post, page])).toBeUndefined();
    expect(parseFileName('content/posts/x.md', [post])).toBeUndefined();
    expect(parseFileName('content/posts/x.md', [post], 'en')).toEqual({
      type: 'post',
      path: 'x',
      locale: 'en',
      format: 'md',
    });
  });

  it('uses NFC for names (macOS gives NFD)', () => {
    const nfd = 'pages/cafe\u0301.md';
    expect(parseFileName(nfd, [page])?.path).toBe('caf\u00e9');
  });

  it('round-trips any valid path', () => {
    const segment = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('en', 'fr', 'pt-BR'),
        (parts, locale) => {
          const path = parts.join('/');
          const name = fileNameOf(post, { path, locale, format: 'md' });
          expect(parseFileName(name, [post, page])).toEqual({ type: 'post', path, locale, format: 'md' });
        },
      ),
    );
  });

  it('finds case-fold collisions', () => {
    expect(caseFoldCollisions(['pages/Post.md', 'pages/post.md', 'pages/other.md'])).toEqual([
      ['pages/Post.md', 'pages/post.md'],
    ]);
  });
});

function local(file: string, hash: string): LocalFile {
  return {
    file,
    diskName: file,
    key: { type: 'page', path: file.slice(6, -3), locale: '__cms_default__', format: 'md' },
    text: '',
    split: { bom: false, eol: '\n', head: '', yaml: '', hasFrontmatter: false, body: '' },
    frontmatter: {},
    body: '',
    hash,
  };
}
function entry(id: string, file: string, hash: string, draftRevision = 1): ManifestEntry {
  return {
    id,
    file,
    type: 'page',
    path: file.slice(6, -3),
    locale: '__cms_default__',
    format: 'md',
    draftRevision,
    publishedVersion: null,
    hash,
  };
}
function remote(id: string, file: string, hash: string, draftRevision = 1): RemoteEntry {
  return {
    doc: { documentId: id, type: 'page', path: file.slice(6, -3), draftRevision } as RemoteDocument,
    file,
    hash,
  };
}

describe('classify', () => {
  it('names every class', () => {
    const items = classify({
      entries: [
        entry('1', 'pages/same.md', 'h1'),
        entry('2', 'pages/remote.md', 'h2'),
        entry('3', 'pages/local.md', 'h3'),
        entry('4', 'pages/both.md', 'h4'),
        entry('5', 'pages/gone-remote.md', 'h5'),
        entry('6', 'pages/gone-local.md', 'h6'),
        entry('7', 'pages/old.md', 'h7'),
        entry('8', 'pages/was-here.md', 'h8'),
      ],
      local: [
        local('pages/same.md', 'h1'),
        local('pages/remote.md', 'h2'),
        local('pages/local.md', 'h3-edited'),
        local('pages/both.md', 'h4-local'),
        local('pages/gone-remote.md', 'h5'),
        local('pages/old.md', 'h7'),
        local('pages/renamed.md', 'h8'),
        local('pages/fresh.md', 'h9'),
      ],
      remote: [
        remote('1', 'pages/same.md', 'h1'),
        remote('2', 'pages/remote.md', 'h2-server', 2),
        remote('3', 'pages/local.md', 'h3'),
        remote('4', 'pages/both.md', 'h4-server', 2),
        remote('6', 'pages/gone-local.md', 'h6'),
        remote('7', 'pages/new-place.md', 'h7', 2),
        remote('8', 'pages/was-here.md', 'h8'),
        remote('10', 'pages/server-new.md', 'h10'),
      ],
    });
    const by = Object.fromEntries(items.map((i) => [i.file, [i.status, i.conflict]]));
    expect(by).toEqual({
      'pages/same.md': ['unchanged', false],
      'pages/remote.md': ['changed-remote', false],
      'pages/local.md': ['changed-local', false],
      'pages/both.md': ['changed-both', true],
      'pages/gone-remote.md': ['deleted-remote', false],
      'pages/gone-local.md': ['deleted-local', false],
      'pages/new-place.md': ['moved-remote', false],
      'pages/renamed.md': ['moved-local', false],
      'pages/fresh.md': ['new-local', false],
      'pages/server-new.md': ['new-remote', false],
    });
  });

  it('an untracked file equal to a server document is adopted, a different one is a conflict', () => {
    const items = classify({
      entries: [],
      local: [local('pages/a.md', 'x'), local('pages/b.md', 'y')],
      remote: [remote('1', 'pages/a.md', 'x'), remote('2', 'pages/b.md', 'z')],
    });
    expect(items.map((i) => [i.file, i.status, i.conflict])).toEqual([
      ['pages/a.md', 'unchanged', false],
      ['pages/b.md', 'changed-both', true],
    ]);
  });

  it('with no edits on either side everything is unchanged', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 20 }), (names) => {
        const files = names.map((n) => `pages/${n}.md`);
        const items = classify({
          entries: files.map((f, i) => entry(String(i), f, `h${i}`)),
          local: files.map((f, i) => local(f, `h${i}`)),
          remote: files.map((f, i) => remote(String(i), f, `h${i}`)),
        });
        expect(items.every((i) => i.status === 'unchanged')).toBe(true);
      }),
    );
  });
});
