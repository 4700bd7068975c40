import { describe, expect, it } from 'vitest';
import { editorFieldMessage } from './editor-words.js';

describe('editorFieldMessage', () => {
  it('never shows a pattern, a UUID example or a raw value to an editor', () => {
    const cases: [string, string][] = [
      ['must match the pattern ^[a-z-]+$', 'is not in the expected format'],
      [
        'must be the id (UUID) of a author document, such as 0b5b2c1e-8f0a-4c5e-9a57-6f1f0f5d3b2a; got the string "x"',
        'must be a author chosen with the picker',
      ],
      [
        'must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got the string "soon"',
        'must be a date, such as 2026-03-01',
      ],
      ['must be one of draft, live, got the string "x"', 'must be one of draft, live'],
      ['must be a number, got the string "12a"', 'must be a number'],
    ];
    for (const [core, words] of cases) {
      const shown = editorFieldMessage(core);
      expect(shown.startsWith(words), shown).toBe(true);
      expect(shown).not.toMatch(/\^|\$|UUID|got |[0-9a-f]{8}-[0-9a-f]{4}/);
    }
  });

  it('keeps a message it does not know, minus an echoed value', () => {
    expect(editorFieldMessage('must be at least 3 characters long')).toBe('must be at least 3 characters long');
    expect(editorFieldMessage('is required, got the string ""')).toBe('is required');
  });
});
