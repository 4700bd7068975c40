import { TextField } from './text-field.js';

const PASSWORDS_DIFFER = 'The two passwords differ.';

/** The server's password rule (12 to 256 characters, no composition rules), checked before sending. */
export function passwordProblem(password: string, confirm: string): string | null {
  const length = [...password].length;
  if (length < 12) return 'Use at least 12 characters.';
  if (length > 256) return 'Use at most 256 characters.';
  if (password !== confirm) return PASSWORDS_DIFFER;
  return null;
}

/** A new password typed twice; once `showProblem` is set, the rule's problem shows on its field. */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  showProblem,
}: {
  password: string;
  confirm: string;
  onPassword: (password: string) => void;
  onConfirm: (confirm: string) => void;
  showProblem: boolean;
}) {
  const problem = showProblem ? passwordProblem(password, confirm) : null;
  return (
    <>
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="12 to 256 characters."
        required
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        error={problem && problem !== PASSWORDS_DIFFER ? problem : null}
      />
      <TextField
        label="Repeat password"
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => onConfirm(e.target.value)}
        error={problem === PASSWORDS_DIFFER ? problem : null}
      />
    </>
  );
}
