/** The preflight against the server's documents: which files collide, and what each message tells to do. */
import { describe, expect, it } from 'vitest';
import type { CliError } from '../../src/cli/exit-codes.js';
import { DEFAULT_LOCALE, type DocumentKey } from '../../src/sync/file-naming.js';
import {
  assertFreeOnServer,
  type PlaceOf,
  pathCollisions,
  type ServerDocument,
  serverCollisions,
} from '../../src/sync/path-collisions.js';

const key = (path: string, locale = DEFAULT_LOCALE, type = 'post'): DocumentKey => ({
  type,
  path,
  locale,
  format: 'md',
});
const doc = (documentId: string, path: string, locale = DEFAULT_LOCALE, type = 'post'): ServerDocument => ({
  documentId,
  type,
  path,
  locale,
  format: 'md',
});
const pulledAs: PlaceOf = (d) => ({ file: `${d.type}s/${d.path}.md` });

function refusal(run: () => void): CliError {
  try {
    run();
  } catch (error) {
    return error as CliError;
  }
  throw new Error('expected a refusal');
}

describe('the preflight against the server', () => {
  it("finds a file taking another document's path and locale, the locale compared as the server does", () => {
    const collisions = serverCollisions(
      [
        { file: 'posts/a.md', key: key('a') },
        { file: 'docs/b.pt-br.md', key: key('b', 'pt-br', 'doc') },
        { file: 'posts/c.md', key: key('c') },
        { file: 'posts/moved.md', key: key('moved'), id: 'same' },
      ],
      [doc('1', 'a', DEFAULT_LOCALE, 'page'), doc('2', 'b', 'pt-BR', 'doc'), doc('same', 'moved'), doc('3', 'c', 'en')],
      pulledAs,
    );
    expect(collisions).toEqual([
      {
        path: 'a',
        locale: null,
        files: ['posts/a.md'],
        server: { id: '1', type: 'page', path: 'a', locale: null, file: 'pages/a.md' },
      },
      {
        path: 'b',
        locale: 'pt-br',
        files: ['docs/b.pt-br.md'],
        server: { id: '2', type: 'doc', path: 'b', locale: 'pt-BR', file: 'docs/b.md' },
      },
    ]);
  });

  it('names the document and says what to do in each case', () => {
    const places: Record<string, ReturnType<PlaceOf>> = {
      other: { file: 'pages/a.md' },
      same: { file: 'posts/b.md' },
      deleted: { file: 'posts/c.md', gone: true },
      unknown: {},
    };
    const error = refusal(() =>
      assertFreeOnServer(
        [
          { file: 'posts/a.md', key: key('a') },
          { file: 'posts/b.md', key: key('b') },
          { file: 'posts/c.mdx', key: key('c') },
          { file: 'posts/d.md', key: key('d') },
        ],
        [doc('other', 'a', DEFAULT_LOCALE, 'page'), doc('same', 'b'), doc('deleted', 'c'), doc('unknown', 'd')],
        (d) => places[d.documentId] ?? {},
      ),
    );
    expect(error.code).toBe('PATH_COLLISION');
    expect(error.exitCode).toBe(1);
    expect(error.message.split('\n')).toEqual([
      '4 file(s) would take the path of a document the server already has; nothing was sent:',
      '  posts/a.md would be "a", which the server\'s page document other has: rename or move posts/a.md, or run `cms pull` to fetch that document as pages/a.md and keep one of the two files',
      '  posts/b.md would be "b", which the server\'s post document same has: run `cms pull` to take that document as this file (if their contents differ, pull reports a conflict to resolve), or rename posts/b.md',
      '  posts/c.mdx would be "c", which the server\'s post document deleted has: its file posts/c.md is deleted here but not yet on the server: push that deletion first (move posts/c.mdx away, `cms push`, move it back), or rename posts/c.mdx',
      '  posts/d.md would be "d", which the server\'s post document unknown has: rename or move posts/d.md (the server\'s document is of a type this config does not have)',
    ]);
    expect(error.hint).toContain('cms pull');
    expect((error.details.collisions as Array<{ server: unknown }>)[2]?.server).toEqual({
      id: 'deleted',
      type: 'post',
      path: 'c',
      locale: null,
      file: 'posts/c.md',
      deletedHere: true,
    });
  });

  it('lets through files whose paths are free', () => {
    expect(() => assertFreeOnServer([{ file: 'posts/a.md', key: key('a') }], [doc('1', 'b')], pulledAs)).not.toThrow();
  });

  it('compares local locales as the server does too', () => {
    expect(
      pathCollisions([
        { file: 'docs/a.pt-br.md', key: key('a', 'pt-br', 'doc') },
        { file: 'docs/a.pt-BR.md', key: key('a', 'pt-BR', 'doc') },
      ]),
    ).toEqual([{ path: 'a', locale: 'pt-br', files: ['docs/a.pt-BR.md', 'docs/a.pt-br.md'] }]);
  });
});
