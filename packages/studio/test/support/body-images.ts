import type { Page } from 'playwright-core';

/** A 1×1 PNG, a real image the media API accepts. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Pastes a PNG named `filename` into the body editor, as a browser's paste of an image file does. */
export function pasteImage(page: Page, filename: string): Promise<unknown> {
  return page.evaluate(`(() => {
    const bytes = Uint8Array.from(atob('${PNG_BASE64}'), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], ${JSON.stringify(filename)}, { type: 'image/png' }));
    document.querySelector('.cm-content').dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  })()`);
}
