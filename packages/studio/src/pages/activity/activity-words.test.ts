import type { AuditEntry } from '@cms/sdk';
import { describe, expect, it } from 'vitest';
import { ACTION_FILTERS, activitySentence, changesText, outcomeText, targetOf } from './activity-words.js';

function entry(
  overrides: Omit<Partial<AuditEntry>, 'target'> & { target?: Partial<AuditEntry['target']> },
): AuditEntry {
  return {
    id: '6d1c0000-0000-4000-8000-000000000000',
    at: '2026-11-27T13:40:01.123Z',
    actor: { type: 'user', id: 'u-ada', label: 'ada@example.com' },
    action: 'content.publish',
    outcome: 'success',
    requestId: null,
    clientRequestId: null,
    ip: null,
    changes: null,
    ...overrides,
    target: {
      project: 'default',
      environment: 'production',
      type: null,
      documentId: null,
      locale: null,
      id: null,
      ...overrides.target,
    },
  };
}

const doc = { type: 'blogPost', documentId: '3b9e0000-0000-4000-8000-000000000000', label: 'Getting started' };

describe('audit entries in words', () => {
  it('reads a document change as a sentence, the target by title and type', () => {
    expect(activitySentence(entry({ target: doc }))).toBe('ada@example.com published “Getting started” (Blog post)');
    expect(activitySentence(entry({ action: 'content.update', target: doc }), 'u-ada')).toBe(
      'You saved “Getting started” (Blog post)',
    );
    expect(targetOf(entry({ target: doc })).to).toBe(`/content/blogPost/${doc.documentId}`);
  });

  it('says what was tried when it was refused, and why in a word', () => {
    const refused = entry({ outcome: 'failure', target: doc, changes: { status: 409 } });
    expect(activitySentence(refused)).toBe('ada@example.com tried to publish “Getting started” (Blog post)');
    expect(outcomeText(refused)).toBe('Refused');
    expect(changesText(refused)).toBe('answered 409');
    expect(outcomeText(entry({ outcome: 'denied' }))).toBe('Not allowed');
  });

  it('names a document without a recorded title by its type, never by its id', () => {
    const sentence = activitySentence(entry({ target: { ...doc, label: undefined } }));
    expect(sentence).toBe('ada@example.com published a blog post');
    expect(sentence).not.toContain(doc.documentId);
  });

  it('reads releases, the scheduler and other targets', () => {
    const release = { id: 'r1', label: 'Spring launch' };
    expect(activitySentence(entry({ action: 'releases.schedule', target: release }))).toBe(
      'ada@example.com scheduled the release “Spring launch”',
    );
    expect(
      activitySentence(
        entry({
          action: 'releases.publish',
          actor: { type: 'system', id: 'release-scheduler', label: null },
          target: release,
        }),
      ),
    ).toBe('The server published the release “Spring launch”');
    expect(targetOf(entry({ action: 'releases.publish', target: release })).to).toBe('/releases/r1');
    expect(activitySentence(entry({ action: 'media.upload', actor: { type: 'apiKey', id: 'k', label: 'CI' } }))).toBe(
      'API key “CI” uploaded a file',
    );
    expect(activitySentence(entry({ action: 'content.migrate' }))).toBe('ada@example.com ran a content migration');
    expect(activitySentence(entry({ action: 'webhooks.rotate' }))).toBe('ada@example.com did webhooks.rotate');
  });

  it('offers the filters in words', () => {
    expect(ACTION_FILTERS.find((filter) => filter.action === 'content.publish')?.label).toBe('Published');
    expect(ACTION_FILTERS.find((filter) => filter.action === 'releases.publish')?.label).toBe('Published release');
  });
});
