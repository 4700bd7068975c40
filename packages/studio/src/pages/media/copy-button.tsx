import { useEffect, useState } from 'react';

/**
 * Copies a text to the clipboard and says so; where the browser refuses (no permission, not a
 * secure context) it says how to copy by hand instead of failing silently.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = window.setTimeout(() => setState('idle'), 4000);
    return () => window.clearTimeout(timer);
  }, [state]);

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
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" className="muted copy-status">
        {state === 'copied'
          ? ' Copied.'
          : state === 'failed'
            ? ' The browser refused: select the text and copy it.'
            : ''}
      </span>
    </>
  );
}
