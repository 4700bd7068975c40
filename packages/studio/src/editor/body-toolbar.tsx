import { type KeyboardEvent, type MutableRefObject, useRef } from 'react';
import { type BodyEditorHandle, FORMAT_SHORTCUTS } from './body-editor-handle.js';
import './writing.css';
import type { FormatCommand } from './markdown-format.js';

/** The buttons, by their label (decisions.md §8). */
const BUTTONS: ReadonlyArray<{ label: string; command: FormatCommand }> = [
  { label: 'Bold', command: 'bold' },
  { label: 'Italic', command: 'italic' },
  { label: 'Link', command: 'link' },
  { label: 'Heading', command: 'heading' },
  { label: 'Bulleted list', command: 'bulletedList' },
];

/**
 * The body's formatting toolbar: each button is a text transform on the editor's selection
 * (markdown-format.ts), with the same keys inside the editor; "Insert image" uploads picked files.
 * One tab stop; the arrow keys, Home and End move between the buttons (ARIA toolbar pattern).
 */
export function BodyToolbar({
  editor,
  onPickImages,
}: {
  editor: MutableRefObject<BodyEditorHandle | null>;
  onPickImages(files: File[]): void;
}) {
  const bar = useRef<HTMLDivElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(bar.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % buttons.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + buttons.length) % buttons.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? buttons.length - 1
              : -1;
    if (next < 0 || index < 0) return;
    event.preventDefault();
    for (const [i, button] of buttons.entries()) button.tabIndex = i === next ? 0 : -1;
    buttons[next]?.focus();
  };

  return (
    <div className="body-toolbar" role="toolbar" aria-label="Formatting" ref={bar} onKeyDown={onKeyDown}>
      {BUTTONS.map(({ label, command }, index) => (
        <button
          key={command}
          type="button"
          tabIndex={index === 0 ? 0 : -1}
          aria-keyshortcuts={FORMAT_SHORTCUTS[command].aria}
          title={`${label} (${FORMAT_SHORTCUTS[command].hint})`}
          // Keep the editor's selection: a mouse press would otherwise move focus (and the selection) away.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => editor.current?.format(command)}
        >
          {label}
        </button>
      ))}
      <button
        type="button"
        tabIndex={-1}
        title="Insert image (upload a picture)"
        onClick={() => picker.current?.click()}
      >
        Insert image
      </button>
      <input
        ref={picker}
        type="file"
        accept="image/*"
        multiple
        hidden
        aria-label="Image files to insert"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onPickImages(files);
        }}
      />
    </div>
  );
}
