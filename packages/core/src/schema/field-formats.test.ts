import { describe, expect, it } from 'vitest';
import { codePointLength, compilePattern, isEmail, isIsoDateOrDateTime, isUrl, isUuid } from './field-formats.js';

describe('isIsoDateOrDateTime', () => {
  it.each([
    '2024-05-01',
    '2024-02-29',
    '2000-02-29',
    '2024-05-01T10:00Z',
    '2024-05-01T10:00:00Z',
    '2024-05-01T10:00:00.123Z',
    '2024-05-01T10:00:00+02:00',
    '2024-05-01T10:00:00-05:30',
    '2024-05-01T10:00:00',
    '2016-12-31T23:59:60Z',
  ])('accepts %s', (value) => {
    expect(isIsoDateOrDateTime(value)).toBe(true);
  });

  it.each([
    '',
    '2024-5-1',
    '2023-02-29',
    '1900-02-29',
    '2024-13-01',
    '2024-04-31',
    '2024-00-10',
    '2024-05-01 10:00:00Z',
    '2024-05-01T24:00:00Z',
    '2024-05-01T10:60:00Z',
    '2024-05-01T10:00:00+25:00',
    '2024-05-01T10',
    '01/05/2024',
    'yesterday',
  ])('rejects %j', (value) => {
    expect(isIsoDateOrDateTime(value)).toBe(false);
  });
});

describe('isUuid', () => {
  it('accepts the 8-4-4-4-12 hex form in any case', () => {
    expect(isUuid('0b5b6f2e-8f0a-4c36-9d55-0c1b9f2b7a11')).toBe(true);
    expect(isUuid('0B5B6F2E-8F0A-4C36-9D55-0C1B9F2B7A11')).toBe(true);
  });

  it.each(['', 'not-a-uuid', '0b5b6f2e8f0a4c369d550c1b9f2b7a11', '{0b5b6f2e-8f0a-4c36-9d55-0c1b9f2b7a11}'])(
    'rejects %j',
    (value) => {
      expect(isUuid(value)).toBe(false);
    },
  );
});

describe('isEmail', () => {
  it.each(['a@example.com', 'first.last+tag@sub.example.co', 'x@localhost'])('accepts %s', (value) => {
    expect(isEmail(value)).toBe(true);
  });

  it.each(['', 'plain', '@example.com', 'a@', 'a b@example.com', 'a@-example.com', 'a@example..com'])(
    'rejects %j',
    (value) => {
      expect(isEmail(value)).toBe(false);
    },
  );
});

describe('isUrl', () => {
  it.each(['https://example.com', 'http://localhost:3000/a?b=c#d', 'mailto:a@example.com', 'tel:+4512345678'])(
    'accepts %s',
    (value) => {
      expect(isUrl(value)).toBe(true);
    },
  );

  it.each([
    '',
    'example.com',
    '/relative/path',
    'javascript:alert(1)',
    'data:text/html,x',
    'ftp://example.com',
    'http://',
  ])('rejects %j', (value) => {
    expect(isUrl(value)).toBe(false);
  });
});

describe('codePointLength', () => {
  it('counts an astral character once', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('a😀b')).toBe(3);
  });
});

describe('compilePattern', () => {
  it('compiles with the u flag and throws on invalid patterns', () => {
    expect(compilePattern('^\\p{Lu}').test('Ä')).toBe(true);
    expect(() => compilePattern('(')).toThrow(SyntaxError);
  });
});
