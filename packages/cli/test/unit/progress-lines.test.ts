/** Progress off a terminal: a line at the start, every few seconds while a phase runs, and at its end. */
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/cli/output.js';

function capture() {
  const chunks: string[] = [];
  const stream = { isTTY: false, columns: 0, write: (text: string) => chunks.push(text) > 0 };
  return { stream: stream as unknown as NodeJS.WriteStream, chunks };
}

describe('progress off a TTY', () => {
  it('prints the start, a line per interval and the end, not every step', () => {
    const err = capture();
    let now = 0;
    const out = new Output({ json: false, stderr: err.stream, stdout: capture().stream, now: () => now });
    out.progress('Pushing', 0, 100);
    for (let done = 1; done < 100; done++) {
      now += 100; // 9.9 s in all: a line at 5 s
      out.progress('Pushing', done, 100);
    }
    out.progress('Pushing', 100, 100);
    expect(err.chunks).toEqual(['Pushing: 0/100\n', 'Pushing: 50/100\n', 'Pushing: 100/100\n']);
  });

  it('prints nothing with --json', () => {
    const err = capture();
    const out = new Output({ json: true, stderr: err.stream, stdout: capture().stream });
    out.progress('Pushing', 0, 1);
    out.progress('Pushing', 1, 1);
    expect(err.chunks).toEqual([]);
  });
});
