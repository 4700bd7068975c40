import type { EditorState, TransactionSpec } from '@codemirror/state';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIDELITY_CORPUS } from '../../test/support/fidelity-corpus.js';
import { formatSpec, insertBlockSpec, lineStartSpec, replaceSelectionSpec, replaceSpec } from './body-commands.js';
import { bodyOf, bodyState } from './body-state.js';
import type { FormatCommand } from './markdown-format.js';

/**
 * Every command of the body editor, run at random places of the fidelity corpus (LF, CRLF, lone CR
 * and mixed endings), changes the file's bytes only where it edits: the bytes outside its changes
 * are the file's own, line endings included, and the breaks it adds take the file's usual ending.
 * The expected bytes are worked out here from the file's text alone, not through line-endings.ts.
 */

const BREAK = /\r\n|\r|\n/g;

/** The file's text as the editor sees it (one LF per break) and, per editor position, its byte offset. */
function positions(bytes: string): { text: string; offsets: number[] } {
  const offsets: number[] = [];
  let text = '';
  let at = 0;
  for (const match of bytes.matchAll(BREAK)) {
    for (let i = at; i < match.index; i += 1) offsets.push(i);
    offsets.push(match.index);
    text += `${bytes.slice(at, match.index)}\n`;
    at = match.index + match[0].length;
  }
  for (let i = at; i <= bytes.length; i += 1) offsets.push(i);
  return { text: text + bytes.slice(at), offsets };
}

/** The most frequent ending (ties: LF, then CRLF), which breaks typed into the file get. */
function usualEnding(bytes: string): string {
  const counts = new Map<string, number>([
    ['\n', 0],
    ['\r\n', 0],
    ['\r', 0],
  ]);
  for (const [ending] of bytes.matchAll(BREAK)) counts.set(ending, (counts.get(ending) ?? 0) + 1);
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/** Runs `spec` and checks the bytes after it against the bytes before with only its changes made. */
function runAndCheck(state: EditorState, spec: TransactionSpec, usual: string): EditorState {
  const before = bodyOf(state);
  const { text, offsets } = positions(before);
  expect(text).toBe(state.doc.toString());
  const transaction = state.update(spec);
  let expected = '';
  let kept = 0;
  transaction.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    expected += before.slice(offsets[kept], offsets[fromA]) + inserted.toString().split('\n').join(usual);
    kept = toA;
  });
  expected += before.slice(offsets[kept]);
  expect(bodyOf(transaction.state)).toBe(expected);
  return transaction.state;
}

type Step =
  | { kind: 'format'; command: FormatCommand; anchor: number; head: number }
  | { kind: 'image'; anchor: number; head: number; dropped: boolean }
  | { kind: 'upload'; anchor: number }
  | { kind: 'paste'; anchor: number; head: number; text: string }
  | { kind: 'enter'; anchor: number }
  | { kind: 'line'; line: number };

const place = fc.double({ min: 0, max: 1, noNaN: true });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('format' as const),
    command: fc.constantFrom<FormatCommand>('bold', 'italic', 'link', 'heading', 'bulletedList'),
    anchor: place,
    head: place,
  }),
  fc.record({ kind: fc.constant('image' as const), anchor: place, head: place, dropped: fc.boolean() }),
  fc.record({ kind: fc.constant('upload' as const), anchor: place }),
  fc.record({
    kind: fc.constant('paste' as const),
    anchor: place,
    head: place,
    text: fc.constantFrom('word', 'two\nlines', 'crlf\r\npasted\r\n', 'cr\rpasted', '- a\n- b\r\n'),
  }),
  fc.record({ kind: fc.constant('enter' as const), anchor: place }),
  fc.record({ kind: fc.constant('line' as const), line: fc.nat({ max: 40 }) }),
) as fc.Arbitrary<Step>;

const at = (state: EditorState, fraction: number) => Math.round(fraction * state.doc.length);
const select = (state: EditorState, anchor: number, head: number) =>
  state.update({ selection: { anchor: at(state, anchor), head: at(state, head) } }).state;

/** Runs one step, checking each transaction it makes. */
function run(start: EditorState, action: Step, usual: string): EditorState {
  let state = start;
  switch (action.kind) {
    case 'format':
      state = select(state, action.anchor, action.head);
      return runAndCheck(state, formatSpec(state, action.command), usual);
    case 'image': {
      state = select(state, action.anchor, action.head);
      const pos = action.dropped ? at(state, action.anchor) : null;
      return runAndCheck(state, insertBlockSpec(state, '![alt](/media/x.png)', pos), usual);
    }
    case 'upload': {
      // A paste: a placeholder holds the place, then the uploaded image replaces it with its alt selected.
      state = select(state, action.anchor, action.anchor);
      state = runAndCheck(state, insertBlockSpec(state, '![Uploading x (1)…]()', null), usual);
      const spec = replaceSpec(state, '![Uploading x (1)…]()', '![x](/media/x.png)', { from: 2, to: 3 });
      expect(spec).not.toBeNull();
      return runAndCheck(state, spec as TransactionSpec, usual);
    }
    case 'paste':
      state = select(state, action.anchor, action.head);
      return runAndCheck(state, replaceSelectionSpec(state, action.text), usual);
    case 'enter':
      state = select(state, action.anchor, action.anchor);
      return runAndCheck(state, replaceSelectionSpec(state, '\n'), usual);
    case 'line': {
      // The preview's click-to-edit: the cursor goes to the line the Markdown parser counted.
      const bytes = bodyOf(state);
      const after = runAndCheck(state, lineStartSpec(state, action.line), usual);
      const lines = bytes.split(BREAK);
      const line = Math.min(Math.max(1, action.line), lines.length);
      const offset = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
      expect(after.selection.main.head).toBe(offset);
      return after;
    }
  }
}

describe('body commands keep every byte they do not edit', () => {
  for (const [name, body] of Object.entries(FIDELITY_CORPUS)) {
    it(`on the ${name} body, whatever runs where`, () => {
      const usual = usualEnding(body);
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => {
          let state = bodyState(body);
          expect(bodyOf(state)).toBe(body);
          for (const action of steps) state = run(state, action, usual);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('body commands on a CRLF body (the reported damage)', () => {
  const body = 'First paragraph.\r\n\r\nSecond with words\r\n\r\nThird paragraph here.\r\n';
  const runAt = (search: string, length: number, spec: (state: EditorState) => TransactionSpec | null) => {
    let state = bodyState(body);
    const from = state.doc.toString().indexOf(search);
    state = state.update({ selection: { anchor: from, head: from + length } }).state;
    return bodyOf(state.update(spec(state) ?? {}).state);
  };

  it('bolds the selected words and heads the cursor line, nothing else', () => {
    expect(runAt('words', 5, (state) => formatSpec(state, 'bold'))).toBe(
      'First paragraph.\r\n\r\nSecond with **words**\r\n\r\nThird paragraph here.\r\n',
    );
    expect(runAt('here', 0, (state) => formatSpec(state, 'heading'))).toBe(
      'First paragraph.\r\n\r\nSecond with words\r\n\r\n## Third paragraph here.\r\n',
    );
  });

  it('replaces an upload placeholder by its image, with CRLF around it', () => {
    const placeholder = '![Uploading photo (1)…]()';
    let state = bodyState(body);
    state = state.update({ selection: { anchor: state.doc.toString().indexOf(' words') } }).state;
    state = state.update(insertBlockSpec(state, placeholder, null)).state;
    state = state.update(replaceSpec(state, placeholder, '![photo](/media/p.png)', { from: 2, to: 7 }) ?? {}).state;
    expect(bodyOf(state)).toBe(
      'First paragraph.\r\n\r\nSecond with\r\n\r\n![photo](/media/p.png)\r\n\r\n words\r\n\r\nThird paragraph here.\r\n',
    );
    expect(state.sliceDoc(state.selection.main.from, state.selection.main.to)).toBe('photo');
  });
});
