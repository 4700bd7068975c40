import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { renderMarkdownWithSourceLines } from './render.js';
import { rehypeSourceLines } from './source-lines.js';

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

  it('marks the blocks of an MDX tree as a rehype plugin, inside components too, leaving the components alone', () => {
    // The tree MDX's compiler hands its rehype plugins for `# Hi\n\n<Callout>\n\nInside.\n\n</Callout>`:
    // the component passes through as an MDX node, its Markdown children already HTML elements.
    const at = (line: number) => ({ start: { line, column: 1 }, end: { line, column: 8 } });
    const tree = {
      type: 'root',
      children: [
        { type: 'element', tagName: 'h1', properties: {}, position: at(1), children: [{ type: 'text', value: 'Hi' }] },
        {
          type: 'mdxJsxFlowElement',
          name: 'Callout',
          attributes: [],
          position: at(3),
          children: [
            {
              type: 'element',
              tagName: 'p',
              properties: {},
              position: at(5),
              children: [{ type: 'text', value: 'Inside.' }],
            },
          ],
        },
      ],
    } as unknown as Root;
    // unified calls a plugin with no options when `.use(rehypeSourceLines)` is given none.
    (rehypeSourceLines as (options?: undefined) => (tree: Root) => void)(undefined)(tree);
    const component = tree.children[1] as unknown as { attributes: unknown[]; children: Root['children'] };
    expect(component.attributes).toEqual([]);
    expect(toHtml(tree.children[0] as Root['children'][number])).toBe('<h1 data-cms-source="1">Hi</h1>');
    expect(toHtml(component.children)).toBe('<p data-cms-source="5">Inside.</p>');
  });
});
