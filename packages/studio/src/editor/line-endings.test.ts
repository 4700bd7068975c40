import { ChangeSet, Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { LineEndings } from './line-endings.js';

/** The editor's text of a file: one LF per break, whatever its ending. */
const editorText = (bytes: string) => bytes.replace(/\r\n|\r|\n/g, '\n');

describe('LineEndings', () => {
  it('gives back the bytes of a file of one ending, with or without a final newline', () => {
    for (const bytes of ['a\r\nb\r\n', 'a\r\nb', 'a\nb\n', 'one line', '', 'old mac\rline\r']) {
      expect(LineEndings.of(bytes).bytesOf(editorText(bytes))).toBe(bytes);
    }
    expect(LineEndings.of('a\r\nb').usual).toBe('\r\n');
    expect(LineEndings.of('a\rb').usual).toBe('\r');
    expect(LineEndings.of('no break').usual).toBe('\n');
  });

  it('keeps each break of a mixed file as it was; the most frequent ending is the usual one', () => {
    const bytes = 'a\r\nb\nc\rd\r\ne\r\n';
    const endings = LineEndings.of(bytes);
    expect(endings.usual).toBe('\r\n');
    expect(endings.exceptions).toEqual([
      { pos: 3, ending: '\n' },
      { pos: 5, ending: '\r' },
    ]);
    expect(endings.bytesOf(editorText(bytes))).toBe(bytes);
    // A tie goes to LF.
    expect(LineEndings.of('a\r\nb\nc').usual).toBe('\n');
  });

  it('moves the exceptions with an edit, drops the ones it deletes, and gives new breaks the usual ending', () => {
    const bytes = 'a\r\nb\nc\r\nd';
    const text = editorText(bytes); // 'a\nb\nc\nd': the LF after b is at 3
    // Insert "x\ny" at 0 and delete "c\n" (positions 4-6 of the editor's text).
    const changes = ChangeSet.of(
      [
        { from: 0, insert: 'x\ny' },
        { from: 4, to: 6 },
      ],
      text.length,
    );
    const after = LineEndings.of(bytes).mapped(changes);
    const newText = changes.apply(Text.of(text.split('\n'))).toString();
    expect(newText).toBe('x\nya\nb\nd');
    expect(after.exceptions).toEqual([{ pos: 6, ending: '\n' }]);
    expect(after.bytesOf(newText)).toBe('x\r\nya\r\nb\nd');
    // Deleting the LF break itself leaves no exception.
    expect(LineEndings.of(bytes).mapped(ChangeSet.of([{ from: 3, to: 4 }], text.length)).exceptions).toEqual([]);
  });
});
