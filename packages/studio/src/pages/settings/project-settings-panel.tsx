import type { ProjectSettings } from '@cms/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CmsError, fieldMessages } from '../../api/index.js';
import { at, viaSdk } from '../../api/sdk.js';
import { projectSettingsKey, useProjectSettings } from '../../state/shared-queries.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ErrorNotice, Loading, Notice } from '../../ui/notice.js';
import { PreviewUrlsRows, previewUrlsToSend } from './preview-urls-rows.js';

const UNITS = { bytes: 1, KB: 1024, MB: 1024 * 1024 } as const;
type Unit = keyof typeof UNITS;
/** What the form offers when no limit is set yet. */
const DEFAULT_SUGGESTION = 5 * UNITS.MB;

/** `2097152` -> `2 MB (2,097,152 bytes)`. */
export function describeBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString('en')} bytes`;
  for (const unit of ['MB', 'KB'] as const) {
    const size = bytes / UNITS[unit];
    if (size >= 1) return `${Number(size.toFixed(2)).toLocaleString('en')} ${unit} (${exact})`;
  }
  return exact;
}

/** The largest unit that states the value exactly, for the form. */
function split(bytes: number): { amount: string; unit: Unit } {
  for (const unit of ['MB', 'KB'] as const) {
    if (bytes % UNITS[unit] === 0) return { amount: String(bytes / UNITS[unit]), unit };
  }
  return { amount: String(bytes), unit: 'bytes' };
}

/**
 * Settings panel `/settings/project` (domain.content): the project's settings, today the image
 * upload limit and the live preview's site address (`GET`/`PUT /api/v1/settings` through the SDK's `projects.settings`). Those who may
 * not manage settings see the values and why they cannot change them.
 */
export function ProjectSettingsPanel() {
  const { target } = useStudio();
  const client = useQueryClient();
  const read = useProjectSettings(target.project);
  // The form starts from this visit's read, never from a copy an earlier visit left in the cache.
  const settings = read.isFetchedAfterMount && !read.error ? (read.data ?? null) : null;
  const error = read.error ? toApiError(read.error) : null;
  return (
    <>
      <h1>Project settings</h1>
      <p className="muted">
        Project <strong>{target.project}</strong>: these settings apply in every environment.
      </p>
      {settings === null && !error ? <Loading /> : null}
      {settings ? (
        <SettingsForm
          settings={settings}
          onSaved={(next) => client.setQueryData(projectSettingsKey(target.project), next)}
        />
      ) : (
        <ErrorNotice error={error} />
      )}
    </>
  );
}

/** What the form holds for `settings`: the limit in the largest exact unit (a suggestion when none is set). */
function fieldsOf(settings: ProjectSettings) {
  return {
    limited: settings.mediaImageMaxBytes !== null,
    ...split(settings.mediaImageMaxBytes ?? DEFAULT_SUGGESTION),
    previewUrl: settings.previewUrl ?? '',
    previewUrls: settings.previewUrls ?? {},
  };
}

/** The settings as a form; a saved answer goes back into the form and to `onSaved` (the query cache). */
function SettingsForm({ settings, onSaved }: { settings: ProjectSettings; onSaved: (next: ProjectSettings) => void }) {
  const { target, bootstrap, types } = useStudio();
  const canManage = bootstrap.me.capabilities['settings.manage'];
  const client = at({ project: target.project });
  const [initial] = useState(() => fieldsOf(settings));
  const [limited, setLimited] = useState(initial.limited);
  const [amount, setAmount] = useState(initial.amount);
  const [unit, setUnit] = useState<Unit>(initial.unit);
  const [previewUrl, setPreviewUrl] = useState(initial.previewUrl);
  const [previewUrls, setPreviewUrls] = useState<Record<string, string>>(initial.previewUrls);
  const [error, setError] = useState<CmsError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { amount: useId(), unit: useId(), hint: useId(), preview: useId(), previewHint: useId() };

  const showSaved = (loaded: ProjectSettings) => {
    const fields = fieldsOf(loaded);
    setLimited(fields.limited);
    setAmount(fields.amount);
    setUnit(fields.unit);
    setPreviewUrl(fields.previewUrl);
    setPreviewUrls(fields.previewUrls);
    onSaved(loaded);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    let mediaImageMaxBytes: number | null = null;
    if (limited) {
      const value = Number(amount.trim().replace(',', '.'));
      if (amount.trim() === '' || !Number.isFinite(value)) {
        setError(
          new CmsError({
            code: 'INVALID_INPUT',
            status: 0,
            message: 'Enter the image upload limit as a number, like 2 (MB), or choose “No limit”.',
          }),
        );
        return;
      }
      // Sent as typed (in bytes): the server says what it accepts (a whole number from 1 byte).
      mediaImageMaxBytes = value * UNITS[unit];
    }
    setBusy(true);
    try {
      // The server checks the address template (docs/live-preview.md) and says what is wrong.
      const next = await viaSdk(() =>
        client.projects.updateSettings({
          mediaImageMaxBytes,
          previewUrl: previewUrl.trim() || null,
          previewUrls: previewUrlsToSend(previewUrls),
        }),
      );
      showSaved(next);
      setSaved(
        next.mediaImageMaxBytes === null
          ? 'Saved: images have no limit of their own.'
          : `Saved: images up to ${describeBytes(next.mediaImageMaxBytes)}.`,
      );
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const messages = fieldMessages(error);
  return (
    <form className="settings-form" onSubmit={save} noValidate aria-labelledby="image-limit-title">
      <fieldset className="group" disabled={!canManage || busy}>
        <legend id="image-limit-title">Image upload limit</legend>
        <p id={ids.hint} className="hint">
          Images larger than this are refused at upload (PAYLOAD_TOO_LARGE) in every environment of the project. Every
          upload, image or not, is also held to the server's own limit (CMS_MAX_UPLOAD_BYTES). Currently:{' '}
          <strong>
            {settings.mediaImageMaxBytes === null ? 'no limit of its own' : describeBytes(settings.mediaImageMaxBytes)}
          </strong>
          .
        </p>
        <label className="choice">
          <input type="radio" name="image-limit" checked={!limited} onChange={() => setLimited(false)} />
          No limit of its own
        </label>
        <label className="choice">
          <input type="radio" name="image-limit" checked={limited} onChange={() => setLimited(true)} />
          Limit images to
        </label>
        <div className="toolbar">
          <label htmlFor={ids.amount}>
            <span>Largest image</span>
            <input
              id={ids.amount}
              inputMode="decimal"
              size={10}
              value={amount}
              disabled={!limited}
              aria-describedby={ids.hint}
              aria-invalid={error?.code === 'INVALID_INPUT' ? true : undefined}
              onChange={(e) => setAmount(e.target.value)}
            />
          </label>
          <label htmlFor={ids.unit}>
            <span>Unit</span>
            <select id={ids.unit} value={unit} disabled={!limited} onChange={(e) => setUnit(e.target.value as Unit)}>
              <option value="MB">MB</option>
              <option value="KB">KB</option>
              <option value="bytes">bytes</option>
            </select>
          </label>
        </div>
      </fieldset>
      <fieldset className="group" disabled={!canManage || busy}>
        <legend>Live preview</legend>
        <label htmlFor={ids.preview}>Site preview address</label>
        <small id={ids.previewHint} className="hint">
          The editor's “Live preview” opens this address beside the editor; {'{path}'}, {'{locale}'}, {'{type}'} and{' '}
          {'{token}'} are filled in. Empty: no live preview.
        </small>
        <input
          id={ids.preview}
          type="url"
          placeholder="https://site.example/preview/{path}?token={token}"
          value={previewUrl}
          aria-describedby={ids.previewHint}
          aria-invalid={messages['body.previewUrl'] ? true : undefined}
          onChange={(e) => setPreviewUrl(e.target.value)}
        />
        <PreviewUrlsRows
          typeNames={types.map((type) => type.name)}
          values={previewUrls}
          messages={messages}
          onChange={setPreviewUrls}
        />
      </fieldset>
      <ErrorNotice error={error} title="Not saved." />
      {saved ? <Notice kind="success">{saved}</Notice> : null}
      {canManage ? (
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      ) : (
        <Notice>You can see these settings; changing them needs the settings:manage permission in this project.</Notice>
      )}
    </form>
  );
}
