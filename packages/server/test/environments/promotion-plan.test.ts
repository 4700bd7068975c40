/**
 * The reasons of conflicting promotion items name the environments involved, so the user knows in
 * which one to resolve each (the plan is read without the request at hand, in the CLI or the Studio).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planPromotion } from '../../src/modules/domain-content/environments/promotion-plan.js';
import type { DocumentRow } from '../../src/storage/repositories/document-row.js';

function row(fields: Partial<DocumentRow>): DocumentRow {
  const at = new Date('2030-01-01T00:00:00Z');
  return {
    id: randomUUID(),
    projectId: 'p',
    environmentId: 'e',
    translationGroupId: randomUUID(),
    type: 'post',
    path: 'hello',
    locale: 'en',
    format: 'md',
    draftFrontmatter: {},
    draftBody: '',
    draftSource: null,
    draftRevision: 1,
    version: 1,
    publishedVersion: 1,
    publishedFrontmatter: {},
    publishedBody: '',
    publishedAt: at,
    hasUnpublishedChanges: false,
    isDeleted: false,
    deletedAt: null,
    deletedBy: null,
    createdBy: 'u',
    updatedBy: 'u',
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

const reasonOf = (source: DocumentRow, sourceDocuments: DocumentRow[], targetDocuments: DocumentRow[]) => {
  const [item] = planPromotion({
    sourceDocuments,
    targetDocuments,
    selected: [source],
    sameSchema: true,
    sourceName: 'staging',
    targetName: 'production',
  });
  expect(item?.action).toBe('conflict');
  return item?.reason;
};

describe('promotion conflict reasons', () => {
  it('a reference the target lacks names both environments', () => {
    const author = row({ path: 'ada', publishedVersion: null });
    const post = row({ publishedFrontmatter: { author: author.id } });
    expect(reasonOf(post, [post, author], [])).toBe(
      `references ${author.id}, which "production" does not have: promote those documents from "staging" too`,
    );
  });

  it('a document of another type at the same path names where each is', () => {
    const post = row({ type: 'post' });
    expect(reasonOf(post, [post], [row({ type: 'page' })])).toBe(
      'the document at this path in "production" is a "page", the one in "staging" a "post": move or delete the one in "production"',
    );
  });

  it('a variant of the translation group at another path names the target', () => {
    const en = row({ path: 'hello', locale: 'en' });
    const de = row({ path: 'hallo', locale: 'de', translationGroupId: en.translationGroupId });
    const targetEn = row({ path: 'hello', locale: 'en' });
    const targetDe = row({ path: 'hallo-alt', locale: 'de', translationGroupId: targetEn.translationGroupId });
    expect(reasonOf(de, [en, de], [targetEn, targetDe])).toBe(
      'the translation group already has a variant in locale "de" at another path in "production": give both the same path, or delete the one in "production"',
    );
  });
});
