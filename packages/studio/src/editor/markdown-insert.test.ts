import { describe, expect, it } from 'vitest';
import { placeBlock } from './markdown-insert.js';

/** `doc` with a cursor `|` or a selection `«...»`, the block inserted, the cursor marked `|` after. */
function insert(marked: string, block = '![b](b.png)'): string {
  const cursor = marked.indexOf('|');
  const from = cursor >= 0 ? cursor : marked.indexOf('«');
  const to = cursor >= 0 ? cursor : marked.indexOf('»') - 1;
  const doc = cursor >= 0 ? marked.replace('|', '') : marked.replace('«', '').replace('»', '');
  const edit = placeBlock({ doc, from, to }, block);
  const [change] = edit.changes;
  if (!change) throw new Error('no change');
  const text = doc.slice(0, change.from) + change.insert + doc.slice(change.to);
  return `${text.slice(0, edit.selection.head)}|${text.slice(edit.selection.head)}`;
}

describe('an inserted image', () => {
  it('is a paragraph of its own: a blank line apart from the text before and after it', () => {
    expect(insert('|Text of a paragraph.')).toBe('![b](b.png)|\n\nText of a paragraph.');
    expect(insert('Before.\n|Text.')).toBe('Before.\n\n![b](b.png)|\n\nText.');
    expect(insert('Some| text.')).toBe('Some\n\n![b](b.png)|\n\n text.');
    expect(insert('Text.|\nNext.')).toBe('Text.\n\n![b](b.png)|\n\nNext.');
    expect(insert('Text.\n\n|\n\nNext.')).toBe('Text.\n\n![b](b.png)|\n\nNext.');
    expect(insert('End.|')).toBe('End.\n\n![b](b.png)|');
    expect(insert('|')).toBe('![b](b.png)|');
  });

  it('goes after an image whose alt text is selected, never inside it', () => {
    expect(insert('![«a»](a.png)')).toBe('![a](a.png)\n\n![b](b.png)|');
    expect(insert('See ![a](a.p|ng) here.')).toBe('See ![a](a.png)\n\n![b](b.png)|\n\n here.');
    // A selection of the whole image is replaced, as any selection is.
    expect(insert('«![a](a.png)»')).toBe('![b](b.png)|');
  });
});
