import { describe, expect, it } from 'vitest';
import { renderMarkdownWithSourceLines } from './render.js';

describe('data-cms-source on rendered Markdown', () => {
  it('marks each block with the body line it starts on, leaving the text alone', () => {
    const body = [
      '# Title',
      '',
      'First paragraph',
      'still first.',
      '',
      '- one',
      '- two',
      '',
      '> quoted',
      '',
      '```js',
      'code()',
      '```',
    ].join('\n');
    const html = renderMarkdownWithSourceLines(body);
    expect(html).toContain('<h1 data-cms-source="1">Title</h1>');
    expect(html).toContain('<p data-cms-source="3">First paragraph\nstill first.</p>');
    expect(html).toContain('<ul data-cms-source="6">');
    expect(html).toContain('<li data-cms-source="7">two</li>');
    expect(html).toContain('<blockquote data-cms-source="9">');
    expect(html).toContain('<pre data-cms-source="11"><code class="language-js">code()\n</code></pre>');
    // Inline elements are not blocks: no marks inside the text.
    expect(renderMarkdownWithSourceLines('a *b* c')).toBe('<p data-cms-source="1">a <em>b</em> c</p>');
  });

  it('counts CRLF bodies by line too, and shifts lines by an offset', () => {
    expect(renderMarkdownWithSourceLines('x\r\n\r\n## y')).toContain('<h2 data-cms-source="3">y</h2>');
    expect(renderMarkdownWithSourceLines('## y', { lineOffset: 4 })).toBe('<h2 data-cms-source="5">y</h2>');
  });
});
