import { type FormEvent, useId, useState } from 'react';
import { type CmsError, fieldMessages } from '../../api/index.js';
import { ErrorNotice } from '../../ui/notice.js';
import { WEBHOOK_EVENTS, type Webhook, type WebhookEventType } from './webhooks-api.js';

export interface WebhookFormValues {
  url: string;
  events: WebhookEventType[];
  active: boolean;
  /** Edit only: make a new secret (shown once after saving). */
  replaceSecret: boolean;
}

/** Create or edit a webhook: its https address, the events it receives, on or off. */
export function WebhookForm({
  webhook,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  webhook: Webhook | null;
  busy: boolean;
  error: CmsError | null;
  onSubmit(values: WebhookFormValues): void;
  onCancel(): void;
}) {
  const id = useId();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(
    (webhook?.events as WebhookEventType[] | undefined) ?? ['content.published'],
  );
  const [active, setActive] = useState(webhook?.active ?? true);
  const [replaceSecret, setReplaceSecret] = useState(false);
  const errors = fieldMessages(error);
  const urlError = errors.url;
  const eventsError = Object.entries(errors).find(([key]) => key.startsWith('events'))?.[1];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ url: url.trim(), events, active, replaceSecret });
  };
  const toggle = (name: WebhookEventType, on: boolean) =>
    setEvents((list) =>
      on
        ? WEBHOOK_EVENTS.map((e) => e.name).filter((n) => n === name || list.includes(n))
        : list.filter((n) => n !== name),
    );

  return (
    <form className="webhook-form panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{webhook ? 'Edit webhook' : 'New webhook'}</h2>
      <ErrorNotice error={error} title={webhook ? 'Not saved:' : 'Not created:'} />
      <div className="field">
        <label htmlFor={`${id}-url`}>Address</label>
        <small id={`${id}-url-hint`} className="hint">
          An https:// address that accepts POST requests. Private and loopback addresses are refused unless the server
          allows them.
        </small>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="https://hooks.example.com/cms"
          value={url}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={`${id}-url-hint${urlError ? ` ${id}-url-error` : ''}`}
          onChange={(e) => setUrl(e.target.value)}
        />
        {urlError ? (
          <small id={`${id}-url-error`} className="field-error">
            {urlError}
          </small>
        ) : null}
      </div>
      <fieldset className="group" aria-describedby={eventsError ? `${id}-events-error` : undefined}>
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <div key={event.name} className="field field-inline">
            <input
              id={`${id}-${event.name}`}
              type="checkbox"
              checked={events.includes(event.name)}
              onChange={(e) => toggle(event.name, e.target.checked)}
            />
            <label htmlFor={`${id}-${event.name}`}>
              <span className="mono">{event.name}</span> <span className="muted">({event.description})</span>
            </label>
          </div>
        ))}
        {eventsError ? (
          <small id={`${id}-events-error`} className="field-error">
            {eventsError}
          </small>
        ) : null}
      </fieldset>
      <div className="field field-inline">
        <input id={`${id}-active`} type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
        <label htmlFor={`${id}-active`}>Active (deliver events)</label>
      </div>
      {webhook ? (
        <div className="field field-inline">
          <input
            id={`${id}-secret`}
            type="checkbox"
            checked={replaceSecret}
            onChange={(e) => setReplaceSecret(e.target.checked)}
          />
          <label htmlFor={`${id}-secret`}>Replace the signing secret (the new one is shown once)</label>
        </div>
      ) : (
        <p className="hint">
          A signing secret is generated in this browser when you create the webhook and shown once, to copy into the
          receiver.
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {webhook ? 'Save webhook' : 'Create webhook'}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
