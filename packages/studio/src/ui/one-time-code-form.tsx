import type { HTMLAttributes } from 'react';
import { AuthForm } from './auth-form.js';
import type { ShownError } from './notice.js';
import { TextField } from './text-field.js';

/**
 * A form asking for one code of the second factor (docs/access-control.md "Second factor"): the
 * refusal, one field the browser may fill from a one-time-code source, and a button enabled once
 * something is typed. Signing in, turning the factor on and renewing the recovery codes use it.
 */
export function OneTimeCodeForm({
  label,
  name,
  inputMode,
  value,
  onChange,
  error,
  busy,
  submitLabel,
  busyLabel,
  onSubmit,
}: {
  label: string;
  name: string;
  /** `numeric` where only the app's digits fit; `text` where a recovery code may be typed too. */
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  value: string;
  onChange: (value: string) => void;
  error: ShownError | null;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: () => void;
}) {
  return (
    <AuthForm
      error={error}
      busy={busy}
      disabled={!value}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      onSubmit={onSubmit}
    >
      <TextField
        label={label}
        name={name}
        autoComplete="one-time-code"
        inputMode={inputMode}
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </AuthForm>
  );
}
