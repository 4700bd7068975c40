/** The server's password rule (12 to 256 characters, no composition rules), checked before sending. */
export function passwordProblem(password: string, confirm: string): string | null {
  const length = [...password].length;
  if (length < 12) return 'Use at least 12 characters.';
  if (length > 256) return 'Use at most 256 characters.';
  if (password !== confirm) return 'The two passwords differ.';
  return null;
}
