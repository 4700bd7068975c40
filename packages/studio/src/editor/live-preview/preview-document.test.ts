import { describe, expect, it } from 'vitest';
import type { ContentDocument } from '../../api/index.js';
import {
  composePreviewDocument,
  type ResolvedReference,
  resolvedTargetsOf,
  unresolvedIds,
} from './preview-document.js';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';
const target = (id: string, name: string): ResolvedReference => ({
  documentId: id,
  type: 'author',
  path: name,
  frontmatter: { name },
});

/** Paths as `resolve=` names them: nested object, array of references, reference in array items. */
const paths = ['author', 'seo.author', 'related', 'blocks.author'];

function readOf(frontmatter: Record<string, unknown>, resolveErrors: ContentDocument['resolveErrors'] = {}) {
  return { frontmatter, body: 'old', source: '---\n---\nold', resolveErrors } as unknown as ContentDocument;
}

describe('live preview document', () => {
  const read = readOf({
    author: target(A, 'a'),
    seo: { title: 'T', author: target(B, 'b') },
    related: [target(A, 'a'), target(C, 'c')],
    blocks: [{ author: target(B, 'b'), text: 'x' }, { text: 'no author' }],
  });

  it('collects the targets the read resolved at every nested path', () => {
    expect([...resolvedTargetsOf(read, paths).keys()].sort()).toEqual([A, B, C]);
  });

  it('resolves nested references, arrays of references and references in array items', () => {
    const known = resolvedTargetsOf(read, paths);
    const edited = {
      author: A,
      seo: { title: 'New', author: C },
      related: [B],
      blocks: [{ author: A, text: 'y' }, { text: 'no author' }],
    };
    const doc = composePreviewDocument(read, { frontmatter: edited, body: 'new' }, paths, known);
    expect(doc.frontmatter).toEqual({
      author: target(A, 'a'),
      seo: { title: 'New', author: target(C, 'c') },
      related: [target(B, 'b')],
      blocks: [{ author: target(A, 'a'), text: 'y' }, { text: 'no author' }],
    });
    expect(doc.body).toBe('new');
    expect('source' in doc).toBe(false);
    expect(edited.seo.author).toBe(C); // the editor's frontmatter is not changed in place
  });

  it('lists unknown nested ids and keeps their read errors under the same keys', () => {
    const D = '00000000-0000-4000-8000-00000000000d';
    const withError = readOf({ seo: { author: D } }, {
      'frontmatter.seo.author': { code: 'NOT_FOUND', message: 'gone', ref: { documentId: D, type: 'author' } },
    } as unknown as ContentDocument['resolveErrors']);
    const edited = { seo: { author: D }, blocks: [{ author: B }] };
    const known = new Map<string, ResolvedReference>();
    expect(unresolvedIds(edited, paths, known).sort()).toEqual([B, D]);
    const doc = composePreviewDocument(withError, { frontmatter: edited, body: '' }, paths, known);
    expect(doc.frontmatter).toEqual(edited);
    expect(Object.keys(doc.resolveErrors)).toEqual(['frontmatter.seo.author']);
  });

  it("answers the draft's own fields as last saved, not as they were when the preview opened", () => {
    const opened = { ...readOf({ title: 'T' }), draftRevision: 1, updatedAt: '2026-11-28T00:00:00.000Z' };
    const saved = {
      ...readOf({ title: 'Saved' }),
      source: '---\ntitle: Saved\n---\n',
      draftRevision: 2,
      updatedAt: '2026-11-28T00:01:00.000Z',
      hasUnpublishedChanges: true,
    } as ContentDocument;
    const edited = { frontmatter: { title: 'Typed' }, body: 'typed' };
    const doc = composePreviewDocument(opened, edited, paths, new Map(), saved);
    expect(doc).toMatchObject({ draftRevision: 2, updatedAt: '2026-11-28T00:01:00.000Z', hasUnpublishedChanges: true });
    expect(doc).toMatchObject({ frontmatter: { title: 'Typed' }, body: 'typed', resolveErrors: {} });
    expect('source' in doc).toBe(false);
    // A release's view keeps the read's fields.
    expect(composePreviewDocument(opened, edited, paths, new Map()).draftRevision).toBe(1);
  });
});
