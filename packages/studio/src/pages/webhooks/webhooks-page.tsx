import { useEffect, useId, useRef, useState } from 'react';
import type { CmsError } from '../../api/index.js';
import { navigate, useLocation } from '../../routing/navigation.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { CopyButton } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Empty, ErrorNotice, Notice } from '../../ui/notice.js';
import { useApiData } from '../../ui/use-api-data.js';
import { formatTime } from '../dashboard-page.js';
import { DeliveryLog } from './delivery-log.js';
import { WebhookForm, type WebhookFormValues } from './webhook-form.js';
import { generateWebhookSecret } from './webhook-secret.js';
import { type Webhook, webhooks } from './webhooks-api.js';

type Editing = { mode: 'create' } | { mode: 'edit'; webhook: Webhook } | null;

/**
 * `/settings/webhooks`: the environment's webhooks (list, create with a secret made in this browser
 * and shown once, edit, activate / deactivate, delete) and, for the chosen one, its delivery log.
 */
export function WebhooksPage() {
  const { target } = useStudio();
  const { query } = useLocation();
  const shown = query.get('webhook');
  const webhookList = useApiData(() => webhooks.list(target), [target]);
  const list = webhookList.data;
  const [error, setError] = useState<CmsError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [formError, setFormError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<{ url: string; value: string } | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  const showLog = (webhook: Webhook | null) =>
    navigate(`/settings/webhooks${webhook ? `?webhook=${encodeURIComponent(webhook.id)}` : ''}`, { replace: true });

  const startEditing = (next: Editing) => {
    setEditing(next);
    setFormError(null);
    setNotice(null);
    setSecret(null);
  };

  const save = async (values: WebhookFormValues) => {
    setBusy(true);
    setFormError(null);
    try {
      if (editing?.mode === 'edit') {
        const newSecret = values.replaceSecret ? generateWebhookSecret() : null;
        const saved = await webhooks.update(target, editing.webhook.id, {
          url: values.url,
          events: values.events,
          active: values.active,
          ...(newSecret ? { secret: newSecret } : {}),
        });
        setNotice(`Saved the webhook to ${saved.url}.`);
        if (newSecret) setSecret({ url: saved.url, value: newSecret });
      } else {
        const value = generateWebhookSecret();
        const created = await webhooks.create(target, {
          url: values.url,
          events: values.events,
          active: values.active,
          secret: value,
        });
        setNotice(`Created the webhook to ${created.url}.`);
        setSecret({ url: created.url, value });
      }
      setEditing(null);
      void webhookList.reload();
    } catch (caught) {
      setFormError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const setActive = async (webhook: Webhook, active: boolean) => {
    setError(null);
    setNotice(null);
    try {
      await webhooks.update(target, webhook.id, { active });
      setNotice(
        active
          ? `Activated the webhook to ${webhook.url}: new events are delivered.`
          : `Deactivated the webhook to ${webhook.url}: new events are not delivered to it.`,
      );
      void webhookList.reload();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    setError(null);
    try {
      await webhooks.remove(target, deleting.id);
      setNotice(`Deleted the webhook to ${deleting.url}; its pending deliveries are cancelled.`);
      if (shown === deleting.id) showLog(null);
      void webhookList.reload();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  const logged = list?.find((webhook) => webhook.id === shown) ?? null;

  return (
    <>
      <div className="page-header">
        <h1>Webhooks</h1>
        <button type="button" className="primary" onClick={() => startEditing({ mode: 'create' })}>
          New webhook
        </button>
      </div>
      <p className="muted">
        Webhooks of {target.project} · {target.environment}: each event is sent as a signed POST (see the signature
        headers in the documentation), retried three times, and kept in the delivery log.
      </p>
      <ErrorNotice error={error ?? webhookList.error} />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {secret ? <SecretOnce url={secret.url} secret={secret.value} onDone={() => setSecret(null)} /> : null}
      {editing ? (
        <WebhookForm
          key={editing.mode === 'edit' ? editing.webhook.id : 'new'}
          webhook={editing.mode === 'edit' ? editing.webhook : null}
          busy={busy}
          error={formError}
          onSubmit={save}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <DataTable
        items={list}
        failed={webhookList.error !== null}
        empty="No webhook in this environment yet."
        caption="Webhooks"
        className="list webhooks"
        columns={['Address', 'Events', 'State', 'Updated', 'Actions']}
        row={(webhook) => (
          <tr key={webhook.id} aria-current={webhook.id === shown ? 'true' : undefined}>
            <td className="mono wrap">{webhook.url}</td>
            <td>
              <ul className="plain">
                {webhook.events.map((event) => (
                  <li key={event} className="mono">
                    {event}
                  </li>
                ))}
              </ul>
            </td>
            <td>
              <span className={`badge ${webhook.active ? 'badge-published' : 'badge-deleted'}`}>
                {webhook.active ? 'Active' : 'Inactive'}
              </span>
            </td>
            <td>
              <time dateTime={webhook.updatedAt}>{formatTime(webhook.updatedAt)}</time>
            </td>
            <td>
              <div className="row-actions">
                <button
                  type="button"
                  aria-pressed={webhook.id === shown}
                  aria-label={`Deliveries of ${webhook.url}`}
                  onClick={() => showLog(webhook.id === shown ? null : webhook)}
                >
                  Deliveries
                </button>
                <button
                  type="button"
                  aria-label={`Edit ${webhook.url}`}
                  onClick={() => startEditing({ mode: 'edit', webhook })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  aria-label={`${webhook.active ? 'Deactivate' : 'Activate'} ${webhook.url}`}
                  onClick={() => setActive(webhook, !webhook.active)}
                >
                  {webhook.active ? 'Deactivate' : 'Activate'}
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete ${webhook.url}`}
                  onClick={() => setDeleting(webhook)}
                >
                  Delete
                </button>
              </div>
            </td>
          </tr>
        )}
      />
      {logged ? <DeliveryLog key={logged.id} webhook={logged} /> : null}
      {shown && list !== null && !logged ? <Empty>The webhook of this address no longer exists.</Empty> : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this webhook?"
          confirmLabel="Delete webhook"
          busy={busy}
          onConfirm={remove}
          onCancel={() => setDeleting(null)}
        >
          <p>
            Events stop going to <span className="mono">{deleting.url}</span>, its pending deliveries are cancelled, and
            its delivery log is removed. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** The signing secret, shown once: it is not stored in the browser and the API never returns it. */
function SecretOnce({ url, secret, onDone }: { url: string; secret: string; onDone(): void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="notice notice-warning secret-once" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        Signing secret
      </h2>
      <p>
        Copy the secret for <span className="mono">{url}</span> into the receiver now: it is shown only this once. The
        receiver checks each delivery’s signature with it (its UTF-8 bytes are the HMAC key).
      </p>
      <label htmlFor={`${id}-secret`}>Secret</label>
      <input
        id={`${id}-secret`}
        className="mono secret-value"
        readOnly
        value={secret}
        onFocus={(event) => event.target.select()}
      />
      <div className="row-actions">
        <CopyButton text={secret} label="Copy secret" confirm="beside" />
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}
