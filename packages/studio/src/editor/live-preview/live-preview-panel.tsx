import type { PreviewFocusMessage } from '@cms/sdk/preview';
import { useId, useState } from 'react';
import type { ContentDocument, Target } from '../../api/index.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import { useReleaseChoices } from './release-choices.js';
import { useLivePreview } from './use-live-preview.js';

/**
 * The site beside the editor (decisions.md §8 "Live preview"), shown while "Live preview" is pressed.
 * "Preview as" switches it between the draft and a release that publishes this document; "Autosave"
 * saves after each pause in typing, for sites that render on the server and reload on each save.
 */
export function LivePreviewPanel(props: {
  target: Target;
  doc: ContentDocument;
  frontmatter: Record<string, unknown>;
  body: string;
  referenceFields: readonly string[];
  /** Save after each pause in typing, for a site rendered on the server (it reloads on each save). */
  autosave: boolean;
  onAutosaveChange(on: boolean): void;
  onFocus(message: PreviewFocusMessage): void;
}) {
  const id = useId();
  const [release, setRelease] = useState<string | null>(null);
  const choices = useReleaseChoices(props.target, props.doc.documentId);
  const { autosave, onAutosaveChange, ...options } = props;
  const { frame, state } = useLivePreview({ ...options, release, open: true });
  return (
    <section className="live-preview" aria-label="Live preview">
      {choices.length > 0 ? (
        <p className="live-preview-release">
          <label htmlFor={`${id}-release`}>Preview as</label>{' '}
          <select id={`${id}-release`} value={release ?? ''} onChange={(e) => setRelease(e.target.value || null)}>
            <option value="">Current draft</option>
            {choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                Release: {choice.title} ({choice.status})
              </option>
            ))}
          </select>
        </p>
      ) : null}
      <p className="live-preview-autosave">
        <label>
          <input
            type="checkbox"
            checked={autosave}
            aria-describedby={`${id}-autosave`}
            onChange={(e) => onAutosaveChange(e.target.checked)}
          />{' '}
          Autosave
        </label>{' '}
        <span className="muted" id={`${id}-autosave`}>
          saves after each pause in typing, for a site rendered on the server (it reloads on each save)
        </span>
      </p>
      {state.notice ? <Notice kind="warning">{state.notice}</Notice> : null}
      <ErrorNotice error={state.error} title="Live preview" />
      {state.src ? (
        <>
          <iframe ref={frame} src={state.src} title={`Live preview of ${props.doc.path}`} />
          <p className="muted live-preview-status" role="status">
            Preview token valid until {new Date(state.expiresAt as string).toLocaleTimeString()}
            {state.renewals > 0 ? ` (renewed ${state.renewals}×)` : ''}
          </p>
        </>
      ) : state.notice || state.error ? null : (
        <p className="muted">Opening the site…</p>
      )}
    </section>
  );
}
