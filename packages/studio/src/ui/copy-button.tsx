import { useEffect, useState } from 'react';

/** How long "Copied." stays beside the button. */
const COPIED_NOTE_MS = 4000;

/**
 * Copies a text to the clipboard and says so: the button itself says "Copied" (`confirm="button"`,
 * for a secret shown once, until the text changes), or "Copied." appears beside it for a few seconds
 * (`confirm="beside"`). Where the browser refuses (no permission, not a secure context), it says how
 * to copy by hand instead of failing silently; the text itself is always shown near the button.
 */
export function CopyButton({
  text,
  label,
  confirm,
  describedBy,
}: {
  text: string;
  label: string;
  confirm: 'button' | 'beside';
  describedBy?: string;
}) {
  // What became of copying which text: a new text starts over.
  const [outcome, setOutcome] = useState<{ text: string; state: 'copied' | 'failed' } | null>(null);
  const state = outcome?.text === text ? outcome.state : 'idle';

  useEffect(() => {
    if (state !== 'copied' || confirm !== 'beside') return;
    const timer = window.setTimeout(() => setOutcome(null), COPIED_NOTE_MS);
    return () => window.clearTimeout(timer);
  }, [state, confirm]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome({ text, state: 'copied' });
    } catch {
      setOutcome({ text, state: 'failed' });
    }
  };

  return (
    <>
      <button type="button" onClick={copy} aria-describedby={describedBy}>
        {state === 'copied' && confirm === 'button' ? 'Copied' : label}
      </button>
      <span role="status" className={confirm === 'button' ? 'visually-hidden' : 'muted copy-status'}>
        {state === 'copied' ? 'Copied.' : ''}
      </span>
      {state === 'failed' ? (
        <small className="field-error" role="alert">
          The browser refused the clipboard: select the text and copy it by hand.
        </small>
      ) : null}
    </>
  );
}
