import type { PreviewFocusMessage } from '@cms/sdk/preview';

/**
 * Acts on a click posted by the site (docs/live-preview.md "Click-to-edit"): `field` focuses the form
 * control of that frontmatter path (`title`, `seo.title`, `tags[1]`), `line` puts the body editor's
 * cursor at the start of that line.
 */
export function focusPreviewTarget(message: PreviewFocusMessage, moveToLine: ((line: number) => void) | null): void {
  if (typeof message.field === 'string' && message.field !== '') {
    const key = `frontmatter${message.field.startsWith('[') ? '' : '.'}${message.field}`;
    const control = document.querySelector<HTMLElement>(`[data-field="${CSS.escape(key)}"]`);
    control?.scrollIntoView({ block: 'center' });
    control?.focus();
  } else if (typeof message.line === 'number' && Number.isInteger(message.line) && message.line > 0) {
    moveToLine?.(message.line);
  }
}
