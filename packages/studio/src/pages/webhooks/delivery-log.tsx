import { type FormEvent, Fragment, useId, useState } from 'react';
import type { CmsError } from '../../api/index.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { Listing } from '../../ui/listing.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import { Pager } from '../../ui/pager.js';
import { useApiData } from '../../ui/use-api-data.js';
import { formatTime } from '../dashboard-page.js';
import {
  DELIVERIES_PAGE_SIZE,
  type DeliveryAttempt,
  type DeliveryStatus,
  type Webhook,
  type WebhookDelivery,
  webhooks,
} from './webhooks-api.js';

const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const STATUS_BADGES: Record<DeliveryStatus, string> = {
  pending: 'badge-draft',
  succeeded: 'badge-published',
  failed: 'badge-error',
  cancelled: 'badge-deleted',
};
/** While a delivery is pending, the log reads itself again this often. */
const PENDING_REFRESH_MS = 2_000;

/** `datetime-local` value of a time, in the browser's zone. */
function localInputValue(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** The delivery log of one webhook: newest first, by status, with redelivery. */
export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const { target } = useStudio();
  const id = useId();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [page, setPage] = useState(1);
  const log = useApiData(
    () =>
      webhooks.deliveries(target, webhook.id, {
        limit: DELIVERIES_PAGE_SIZE,
        offset: (page - 1) * DELIVERIES_PAGE_SIZE,
        ...(status ? { status } : {}),
      }),
    [target, webhook.id, status, page],
    // Read again while a delivery of the page is still pending.
    {
      readAgainAfter: (answer) =>
        answer.data.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false,
    },
  );
  const [error, setError] = useState<CmsError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [open, setOpen] = useState<Record<string, DeliveryAttempt[] | 'loading'>>({});
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 24 * 3600_000)));
  const [busy, setBusy] = useState(false);

  const deliveries = log.data?.data ?? null;

  const redeliver = async (delivery: WebhookDelivery) => {
    setNotice(null);
    setError(null);
    try {
      await webhooks.redeliver(target, webhook.id, delivery.id);
      setNotice(`The ${delivery.event} delivery is queued again (same delivery id, attempts start over).`);
      void log.reload();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  const redeliverFailed = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    setError(null);
    const time = new Date(since);
    if (Number.isNaN(time.getTime())) {
      setError(toApiError(new Error('Choose the date and time to redeliver failed deliveries from.')));
      return;
    }
    setBusy(true);
    try {
      const { redelivered } = await webhooks.redeliverFailed(target, webhook.id, time.toISOString());
      setNotice(
        redelivered === 0
          ? `No failed delivery since ${formatTime(time.toISOString())}.`
          : `${redelivered} failed ${redelivered === 1 ? 'delivery is' : 'deliveries are'} queued again.`,
      );
      void log.reload();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const toggleAttempts = async (delivery: WebhookDelivery) => {
    if (open[delivery.id]) {
      setOpen(({ [delivery.id]: _closed, ...rest }) => rest);
      return;
    }
    setOpen((all) => ({ ...all, [delivery.id]: 'loading' }));
    try {
      const detail = await webhooks.delivery(target, webhook.id, delivery.id);
      setOpen((all) => ({ ...all, [delivery.id]: detail.attemptLog }));
    } catch (caught) {
      setOpen(({ [delivery.id]: _closed, ...rest }) => rest);
      setError(toApiError(caught));
    }
  };

  return (
    <section className="delivery-log panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        Deliveries to <span className="mono">{webhook.url}</span>
      </h2>
      <div className="toolbar">
        <label>
          <span>Status</span>
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DeliveryStatus | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void log.reload()}>
          Refresh deliveries
        </button>
      </div>
      <form className="toolbar" onSubmit={redeliverFailed} aria-label="Redeliver failed deliveries">
        <label>
          <span>Failed since</span>
          <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Redeliver all failed
        </button>
      </form>
      <ErrorNotice error={error ?? log.error} />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <DataTable
        items={deliveries}
        failed={log.error !== null}
        empty={status ? `No ${STATUS_LABELS[status].toLowerCase()} delivery.` : 'No delivery yet.'}
        caption="Deliveries, newest first"
        className="list deliveries"
        columns={['Event', 'Status', 'Attempts', 'Response', 'Duration', 'Time', 'Actions']}
        row={(delivery) => {
          const attempts = open[delivery.id];
          return (
            <Fragment key={delivery.id}>
              <tr>
                <td className="mono">{delivery.event}</td>
                <td>
                  <span className={`badge ${STATUS_BADGES[delivery.status]}`}>{STATUS_LABELS[delivery.status]}</span>
                </td>
                <td>{delivery.attempts}</td>
                <td>
                  {delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : '—'}
                  {delivery.lastError ? <div className="muted small">{delivery.lastError}</div> : null}
                </td>
                <td>{delivery.durationMs !== null ? `${delivery.durationMs} ms` : '—'}</td>
                <td>
                  <time dateTime={delivery.createdAt}>{formatTime(delivery.createdAt)}</time>
                  {delivery.lastAttemptAt ? (
                    <div className="muted small">
                      last attempt <time dateTime={delivery.lastAttemptAt}>{formatTime(delivery.lastAttemptAt)}</time>
                    </div>
                  ) : null}
                  {delivery.status === 'pending' && delivery.nextAttemptAt ? (
                    <div className="muted small">
                      next attempt <time dateTime={delivery.nextAttemptAt}>{formatTime(delivery.nextAttemptAt)}</time>
                    </div>
                  ) : null}
                </td>
                <td>
                  <div className="row-actions">
                    <button
                      type="button"
                      aria-expanded={Boolean(attempts)}
                      aria-controls={`${id}-${delivery.id}`}
                      onClick={() => toggleAttempts(delivery)}
                    >
                      {attempts ? 'Hide attempts' : 'Attempts'}
                    </button>
                    <button type="button" disabled={delivery.status === 'pending'} onClick={() => redeliver(delivery)}>
                      Redeliver
                    </button>
                  </div>
                </td>
              </tr>
              {attempts ? (
                <tr id={`${id}-${delivery.id}`}>
                  <td colSpan={7}>
                    <Listing items={attempts === 'loading' ? null : attempts} empty="No attempt yet.">
                      {(list) => (
                        <ol className="attempts">
                          {list.map((attempt) => (
                            <li key={`${attempt.round}-${attempt.attempt}`}>
                              Round {attempt.round}, attempt {attempt.attempt}:{' '}
                              {attempt.succeeded ? 'succeeded' : 'failed'}
                              {attempt.statusCode !== null ? `, HTTP ${attempt.statusCode}` : ''}, {attempt.durationMs}{' '}
                              ms, <time dateTime={attempt.attemptedAt}>{formatTime(attempt.attemptedAt)}</time>
                              {attempt.error ? <div className="field-error">{attempt.error}</div> : null}
                              {attempt.responseSnippet ? (
                                <pre className="response-snippet">{attempt.responseSnippet}</pre>
                              ) : null}
                            </li>
                          ))}
                        </ol>
                      )}
                    </Listing>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        }}
      />
      <Pager
        label="Delivery pages"
        page={page}
        pageSize={DELIVERIES_PAGE_SIZE}
        total={log.data?.pagination.total ?? 0}
        onPage={setPage}
      />
    </section>
  );
}
