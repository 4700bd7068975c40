import { describe, expect, it } from 'vitest';
import {
  altTextFor,
  assetMarkdown,
  formatText,
  imageMarkdown,
  type TextEdit,
  type TextState,
} from './markdown-format.js';

/** Applies an edit, returning the text and the selected text after it. */
function apply(state: TextState, edit: TextEdit): { text: string; selected: string } {
  let text = state.doc;
  for (const change of [...edit.changes].sort((a, b) => b.from - a.from)) {
    text = text.slice(0, change.from) + change.insert + text.slice(change.to);
  }
  const { anchor, head } = edit.selection;
  return { text, selected: text.slice(Math.min(anchor, head), Math.max(anchor, head)) };
}

/** `doc` with the selection marked by `[` and `]` (or a cursor `|`). */
function state(marked: string): TextState {
  const cursor = marked.indexOf('|');
  if (cursor >= 0) return { doc: marked.replace('|', ''), from: cursor, to: cursor };
  const from = marked.indexOf('[');
  const to = marked.indexOf(']') - 1;
  return { doc: marked.replace('[', '').replace(']', ''), from, to };
}

const run = (command: Parameters<typeof formatText>[0], marked: string) => {
  const s = state(marked);
  return apply(s, formatText(command, s));
};

describe('body toolbar transforms', () => {
  it('wraps the selection in strong emphasis, in the style the document uses, and unwraps it again', () => {
    expect(run('bold', 'say [hello] there')).toEqual({ text: 'say **hello** there', selected: 'hello' });
    expect(run('bold', 'an __old__ style, [new]')).toEqual({ text: 'an __old__ style, __new__', selected: 'new' });
    expect(run('bold', 'say **[hello]** there')).toEqual({ text: 'say hello there', selected: 'hello' });
    expect(run('bold', 'say |')).toEqual({ text: 'say **bold text**', selected: 'bold text' });
  });

  it('uses _ for emphasis unless the document writes it with single stars', () => {
    expect(run('italic', '[word]')).toEqual({ text: '_word_', selected: 'word' });
    expect(run('italic', 'some *em* here, [word]')).toEqual({ text: 'some *em* here, *word*', selected: 'word' });
    expect(run('italic', 'a **strong** one, [word]').text).toBe('a **strong** one, _word_');
    // Italic inside bold (same star) nests, and each toggles its own markers off again.
    expect(run('italic', 'x *y* **[bold]**')).toEqual({ text: 'x *y* ***bold***', selected: 'bold' });
    expect(run('bold', 'x *y* ***[both]***')).toEqual({ text: 'x *y* *both*', selected: 'both' });
    expect(run('italic', 'x *y* ***[both]***')).toEqual({ text: 'x *y* **both**', selected: 'both' });
  });

  it('wraps the text of a list, quote or heading line, not its markup, and not the blanks at the ends', () => {
    expect(run('bold', '[- item one]\n- two')).toEqual({ text: '- **item one**\n- two', selected: 'item one' });
    const task = { doc: '  1. [ ] task \nnext', from: 0, to: 14 };
    expect(apply(task, formatText('bold', task))).toEqual({ text: '  1. [ ] **task** \nnext', selected: 'task' });
    expect(run('italic', '[> ## quoted title]')).toEqual({ text: '> ## _quoted title_', selected: 'quoted title' });
    expect(run('bold', '- |item').text).toBe('- **bold text**item');
    expect(run('bold', '|- item').text).toBe('- **bold text**item');
  });

  it('wraps each line of a selection over several lines on its own, and unwraps them all again', () => {
    expect(run('bold', '[- one\n\n- two]\n- three')).toEqual({
      text: '- **one**\n\n- **two**\n- three',
      selected: 'one**\n\n- **two',
    });
    expect(run('bold', '[- **one**\n- **two**]').text).toBe('- one\n- two');
    // A line already wrapped stays so while the others get wrapped.
    expect(run('bold', '[a\n**b**\nc]').text).toBe('**a**\n**b**\n**c**');
  });

  it('makes a link with the address selected, or the text when the selection is an address', () => {
    expect(run('link', 'see [the docs]')).toEqual({ text: 'see [the docs](https://)', selected: 'https://' });
    expect(run('link', 'at [https://example.org]')).toEqual({
      text: 'at [link text](https://example.org)',
      selected: 'link text',
    });
  });

  it('toggles a heading on the lines of the selection, replacing another level', () => {
    expect(run('heading', 'Intro|\ntext').text).toBe('## Intro\ntext');
    expect(run('heading', '## Intro|\ntext').text).toBe('Intro\ntext');
    expect(run('heading', '#### Deep|').text).toBe('## Deep');
  });

  it('bullets every selected line with the marker the document uses, and takes the bullets away again', () => {
    expect(run('bulletedList', '[one\ntwo]\nthree').text).toBe('- one\n- two\nthree');
    expect(run('bulletedList', '* a\n\n[one\n\ntwo]').text).toBe('* a\n\n* one\n\n* two');
    expect(run('bulletedList', '[- one\n- two]').text).toBe('one\ntwo');
    // A selection ending at the next line's start leaves that line alone; CRLF text keeps its endings.
    expect(run('bulletedList', '[one\r\n]two').text).toBe('- one\r\ntwo');
  });

  it('proposes alt text from the file name and escapes the address', () => {
    expect(altTextFor('team-photo_2.png')).toBe('team photo 2');
    expect(altTextFor('image.png')).toBe('Describe the image');
    expect(imageMarkdown('a [b]', '/media/x/my pic (1).png')).toBe('![a b](/media/x/my%20pic%20%281%29.png)');
  });

  it('inserts a library image with its own alt text, else its file name, and another file as a link', () => {
    const photo = { filename: 'harbour (2).jpg', url: '/media/p/e/m/harbour (2).jpg', mimeType: 'image/jpeg' };
    expect(assetMarkdown({ ...photo, alt: ' Boats in the [harbour] ' })).toBe(
      '![Boats in the harbour](/media/p/e/m/harbour%20%282%29.jpg)',
    );
    expect(assetMarkdown({ ...photo, alt: '' })).toBe('![harbour (2)](/media/p/e/m/harbour%20%282%29.jpg)');
    expect(
      assetMarkdown({ filename: 'notes [v1].pdf', url: '/media/p/e/m/notes.pdf', mimeType: 'application/pdf' }),
    ).toBe('[notes v1.pdf](/media/p/e/m/notes.pdf)');
  });
});
