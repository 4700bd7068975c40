/**
 * The body's line separator, so the editor gives back exactly the text it was given: a body whose
 * every break is CRLF keeps CRLF; any other body uses LF as the separator and keeps a stray CR as a
 * character of its line (CodeMirror's default would turn every CR and CRLF into LF).
 */
export function lineSeparatorOf(text: string): '\r\n' | '\n' {
  const crlf = text.split('\r\n').length - 1;
  if (crlf === 0) return '\n';
  const lf = text.split('\n').length - 1;
  return lf === crlf ? '\r\n' : '\n';
}
