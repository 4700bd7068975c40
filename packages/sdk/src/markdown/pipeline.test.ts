import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './pipeline.js';
import { renderMarkdownWithSourceLines } from './render.js';

describe('the Markdown pipeline', () => {
  it('renders GFM: tables with their alignment, strikethrough, autolinks and footnotes', () => {
    const html = renderMarkdown(
      '| a | b |\n|:--|--:|\n| 1 | 2 |\n\n~~gone~~ www.example.org and a note[^1]\n\n[^1]: Said.',
    );
    expect(html).toContain('<th align="left">a</th>');
    expect(html).toContain('<td align="right">2</td>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<a href="http://www.example.org">www.example.org</a>');
    expect(html).toContain('<section data-footnotes class="footnotes">');
  });

  it('names each task box by its item, so it has a label (axe: critical otherwise)', () => {
    const html = renderMarkdown('- [x] Write the *intro*\n- [ ] Check links\n  - [ ] nested one');
    expect(html).toContain('<input type="checkbox" checked disabled aria-label="Write the intro">');
    expect(html).toContain('<input type="checkbox" disabled aria-label="Check links">');
    expect(html).toContain('<input type="checkbox" disabled aria-label="nested one">');
  });

  it('is sanitised by default: raw HTML left out, no javascript: links, no event handlers', () => {
    const body = 'Hi <b onclick="x()">bold</b>\n\n<script>alert(1)</script>\n\n[click](javascript:alert(1))';
    const html = renderMarkdown(body);
    expect(html).not.toMatch(/script|onclick|javascript:|<b/);
    expect(html).toContain('<p>Hi bold</p>');
    expect(html).toContain('<a>click</a>');
  });

  it('keeps raw HTML only when asked, as written', () => {
    const html = renderMarkdown('<details><summary>More</summary>\n\nInside.\n\n</details>', { html: 'keep' });
    expect(html).toContain('<details><summary>More</summary>');
    expect(html).toContain('<p>Inside.</p>');
    expect(renderMarkdownWithSourceLines('<div class="x">kept</div>', { html: 'keep' })).toBe(
      '<div class="x">kept</div>',
    );
    expect(renderMarkdownWithSourceLines('<div class="x">dropped</div>\n\ntext')).toBe(
      '<p data-cms-source="3">text</p>',
    );
  });
});
