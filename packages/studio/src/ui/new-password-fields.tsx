import { useState } from 'react';
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

/** The state of a new password typed twice (NewPasswordFields). */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [sent, setSent] = useState(false);
  return {
    password,
    confirm,
    setPassword,
    setConfirm,
    /** The rule's problem, once the person tried to send. */
    shownProblem: sent ? passwordProblem(password, confirm) : null,
    /** On sending: from now on the problem shows; true when the pair may be sent. */
    check: () => {
      setSent(true);
      return passwordProblem(password, confirm) === null;
    },
  };
}

/** A new password typed twice, with the rule's problem on its field once the person tried to send. */
export function NewPasswordFields({ pair }: { pair: ReturnType<typeof useNewPassword> }) {
  const { password, confirm, setPassword: onPassword, setConfirm: onConfirm, shownProblem: problem } = pair;
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
