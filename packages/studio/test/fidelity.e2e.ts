import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import {
  CRLF_DOCUMENT,
  CRLF_NO_FINAL_NEWLINE,
  LONE_CR,
  MARKDOWN,
  MDX,
  MIXED_ENDINGS,
} from './support/fidelity-corpus.js';
import {
  createFirstAdmin,
  launchBrowser,
  type StudioServer,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * Saving changes only what the person changed: open a document whose body and frontmatter are full
 * of things editors like to rewrite, change only the title, save, and compare byte for byte.
 */
const SCHEMA: ResolvedSchema = {
  types: [
    {
      name: 'article',
      directory: 'articles',
      localized: false,
      fields: {
        title: field('string', { required: true }),
        publishedOn: field('date'),
        updatedAt: field('date'),
        code: field('string'),
        rating: field('number'),
        tags: field('array', { items: { kind: 'string', checks: [] } }),
      },
    },
  ],
};
const HASH = computeSchemaHash(SCHEMA);

const FRONTMATTER = {
  title: 'Original title',
  publishedOn: '2024-02-29',
  updatedAt: '2024-03-01T10:00:00+05:30',
  code: '007',
  rating: 4.5,
  tags: ['a', 'b'],
  '10': 'integer-like key',
  extra: { nested: [1, '1', null, true], empty: '' },
  trailing: 'spaces kept   ',
};

describe('Studio saves only what changed', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    page = await browser.newPage();
    await signInAs(page, server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const create = async (path: string, format: 'md' | 'mdx', body: string) => {
    const response = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type: 'article', path, format, frontmatter: FRONTMATTER, body },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.data as { documentId: string; frontmatter: Record<string, unknown>; body: string };
  };
  const read = async (id: string) => (await server.request('GET', `/api/v1/content/${id}?draft=true`)).body.data;

  for (const [name, format, body] of [
    ['markdown with a BOM, bullets, escapes, HTML, tables and footnotes', 'md', MARKDOWN],
    ['CRLF line endings without a final newline', 'md', CRLF_NO_FINAL_NEWLINE],
    ['MDX with imports, components and expressions', 'mdx', MDX],
    ['CRLF line endings with a list and an image', 'md', CRLF_DOCUMENT],
    ['lone CR line endings', 'md', LONE_CR],
    ['mixed LF, CRLF and lone CR line endings', 'md', MIXED_ENDINGS],
  ] as const) {
    it(`keeps ${name} byte for byte when only the title changes`, async () => {
      const created = await create(`fidelity-${name.length}`, format, body);
      // The server stores the body as sent, except a leading BOM, which it drops on write.
      const before = await read(created.documentId);
      expect(before.body).toBe(body.replace(/^\uFEFF/, ''));

      await page.goto(`${server.url}/studio/content/article/${created.documentId}`);
      await page.getByLabel('Title').waitFor();
      // Opening and leaving writes nothing.
      await page.getByText('No changes').waitFor();
      expect((await read(created.documentId)).draftRevision).toBe(1);

      await page.getByLabel('Title').fill('Changed title');
      await page.keyboard.press('Control+s');
      await page.getByText(/^Saved at/).waitFor();

      const after = await read(created.documentId);
      expect(after.draftRevision).toBe(2);
      expect(after.body).toBe(before.body);
      expect(after.frontmatter.title).toBe('Changed title');
      const { title: _old, ...othersBefore } = before.frontmatter;
      const { title: _new, ...othersAfter } = after.frontmatter;
      expect(JSON.stringify(othersAfter)).toBe(JSON.stringify(othersBefore));
    });
  }

  it('changes only the title line of the file a pull gives back (the kept source text)', async () => {
    // The file as `cms push` sent it: a comment, a quoted title with a comment after it, a plain date,
    // a quoted number-like string and a padded flow list.
    const source = [
      '---',
      '# NOTE: kept as written',
      'title: "Original title" # the page heading',
      'publishedOn: 2024-02-29',
      "code: '007'",
      'tags: [ a, b ]',
      'rating: 4.5',
      '---',
      'Body as written.',
      '',
    ].join('\n');
    const response = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: {
        type: 'article',
        path: 'kept-source',
        frontmatter: { title: 'Original title', publishedOn: '2024-02-29', code: '007', tags: ['a', 'b'], rating: 4.5 },
        body: 'Body as written.\n',
        source,
      },
    });
    expect(response.status, response.text).toBe(201);
    const id = response.body.data.documentId as string;
    expect((await read(id)).source).toBe(source);

    await page.goto(`${server.url}/studio/content/article/${id}`);
    await page.getByLabel('Title').waitFor();
    await page.getByText('No changes').waitFor();
    await page.getByLabel('Title').fill('Changed title');
    await page.keyboard.press('Control+s');
    await page.getByText(/^Saved at/).waitFor();

    // What `cms pull` writes into an empty folder: the same bytes but the title's value.
    const after = await read(id);
    expect(after.draftRevision).toBe(2);
    expect(after.source).toBe(source.replace('"Original title"', '"Changed title"'));
  });

  it('keeps a body edit exactly where it was typed, line endings included', async () => {
    const created = await create('crlf-edit', 'md', CRLF_NO_FINAL_NEWLINE);
    await page.goto(`${server.url}/studio/content/article/${created.documentId}`);
    await page.locator('.cm-content').waitFor();
    await page.locator('.cm-line').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await page.keyboard.press('Enter');
    await page.keyboard.type('inserted');
    await page.keyboard.press('Control+s');
    await page.getByText(/^Saved at/).waitFor();
    expect((await read(created.documentId)).body).toBe(
      'First line!\r\ninserted\r\nSecond line  \r\n\r\n* item\r\n* item two\r\nlast line without newline',
    );
  });
});
