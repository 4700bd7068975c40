import { describe, expect, it } from 'vitest';
import { lineSeparatorOf } from './line-endings.js';

describe('lineSeparatorOf', () => {
  it('keeps CRLF when every break is CRLF, with or without a final newline', () => {
    expect(lineSeparatorOf('a\r\nb\r\n')).toBe('\r\n');
    expect(lineSeparatorOf('a\r\nb')).toBe('\r\n');
  });

  it('uses LF for LF bodies, one-line bodies and the empty body', () => {
    expect(lineSeparatorOf('a\nb\n')).toBe('\n');
    expect(lineSeparatorOf('one line')).toBe('\n');
    expect(lineSeparatorOf('')).toBe('\n');
  });

  it('uses LF for mixed bodies, so the LF lines are not turned into CRLF (the CRs stay characters)', () => {
    expect(lineSeparatorOf('a\r\nb\nc')).toBe('\n');
    expect(lineSeparatorOf('a\rb\r\nc')).toBe('\r\n');
    expect(lineSeparatorOf('old mac\rline')).toBe('\n');
  });
});
