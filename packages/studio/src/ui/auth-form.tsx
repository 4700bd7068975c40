import { type ReactNode, useState } from 'react';
import type { CmsError } from '../api/index.js';
import { toApiError } from '../api/index.js';
import { ErrorNotice, Notice, type ShownError } from './notice.js';

/**
 * Sending a form of a page reached before signing in (sign-in, setup, invite): busy while the call
 * runs and after it succeeded (the page moves on), the refusal shown otherwise. `describe` words an
 * error for the page (the sign-in page says what its codes mean).
 */
export function useAuthSubmit({
  initialError = null,
  describe = (error) => error,
}: {
  initialError?: ShownError | null;
  describe?: (error: CmsError) => ShownError;
} = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(initialError);
  /** Shows a refusal of this page, also from outside the form (a single sign-on button). */
  const fail = (caught: unknown) => setError(describe(toApiError(caught)));
  /** `send` answers `'stay'` when the page does not move on (a second sign-in step follows). */
  const submit = async (send: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      if ((await send()) === 'stay') setBusy(false);
    } catch (caught) {
      fail(caught);
      setBusy(false);
    }
  };
  return { busy, error, setError, fail, submit };
}

/** Said in place of a missing `?token=` (an address opened without the rest of its link). */
export function MissingToken({ source }: { source: string }) {
  return (
    <Notice kind="warning">
      This page needs {source} (it ends in <code>?token=…</code>).
    </Notice>
  );
}

/** The form of a page reached before signing in: its refusal, its fields, one submit button. */
export function AuthForm({
  error,
  busy,
  disabled = false,
  submitLabel,
  busyLabel,
  onSubmit,
  children,
}: {
  error: ShownError | null;
  busy: boolean;
  disabled?: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorNotice error={error} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
        noValidate
      >
        {children}
        <button type="submit" className="primary" disabled={busy || disabled}>
          {busy ? busyLabel : submitLabel}
        </button>
      </form>
    </>
  );
}
