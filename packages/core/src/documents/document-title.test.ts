import { describe, expect, it } from 'vitest';
import { documentTitle } from './document-title.js';

describe('documentTitle', () => {
  it('takes the first title-like field that holds text', () => {
    expect(documentTitle({ title: 'Intro', name: 'intro' })).toBe('Intro');
    expect(documentTitle({ title: '  ', name: 'Grace Hopper' })).toBe('Grace Hopper');
    expect(documentTitle({ label: 3, heading: 'Setup' })).toBe('Setup');
  });

  it('is null when no field names the document', () => {
    expect(documentTitle({ slug: 'a' })).toBeNull();
    expect(documentTitle(null)).toBeNull();
  });
});
