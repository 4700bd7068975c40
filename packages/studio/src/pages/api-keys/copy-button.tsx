import { useEffect, useState } from 'react';

/**
 * Copies a text to the clipboard and says so. When the browser refuses (no permission, not a secure
 * context), it says how to copy by hand instead; the text itself is always shown beside the button.
 */
export function CopyButton({
  text,
  label = 'Copy',
  describedBy,
}: {
  text: string;
  label?: string;
  describedBy?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  // A new text starts over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every new text
  useEffect(() => setState('idle'), [text]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <>
      <button type="button" onClick={copy} aria-describedby={describedBy}>
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {state === 'copied' ? 'Copied to the clipboard.' : ''}
      </span>
      {state === 'failed' ? (
        <small className="field-error">The browser refused the clipboard: select the text and press Ctrl+C.</small>
      ) : null}
    </>
  );
}
