/**
 * The signed-in person's own sessions (`GET /api/v1/auth/sessions`): where and when each signed in,
 * ending one, and "Sign out everywhere", which ends every other session and then this one
 * (`DELETE /api/v1/auth/sessions/{id}` each; the last answer clears this browser's cookies).
 */
import { useState } from 'react';
import { type CmsError, people, type Session } from '../../api/index.js';
import { navigate } from '../../routing/navigation.js';
import { toApiError } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import { useApiData } from '../../ui/use-api-data.js';
import { formatTime } from '../dashboard-page.js';

/** A short name for a browser from its user agent ("Chrome on Linux"); the full text is kept in a title. */
export function deviceOf(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /^cms\//i.test(userAgent) || /node/i.test(userAgent)
            ? 'Command line or script'
            : 'Browser';
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Mac OS X|Macintosh/.test(userAgent)
      ? 'macOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /iPhone|iPad/.test(userAgent)
          ? 'iOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}

export function SessionsSection() {
  // This browser's session first, then the newest.
  const sessions = useApiData(
    async () =>
      (await people.sessions()).sort(
        (a, b) => Number(Boolean(b.current)) - Number(Boolean(a.current)) || b.issuedAt.localeCompare(a.issuedAt),
      ),
    [],
  );
  const [error, setError] = useState<CmsError | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const end = async (session: Session) => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      await people.endSession(session.id);
      setMessage(`Signed out ${deviceOf(session.userAgent)}.`);
      await sessions.reload();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const everywhere = async () => {
    if (!window.confirm('Sign out everywhere? Every session ends, this one included, and you will sign in again.')) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const list = await people.sessions();
      const others = list.filter((s) => !s.current);
      for (const session of others) await people.endSession(session.id);
      const current = list.find((s) => s.current);
      if (current) await people.endSession(current.id);
      navigate('/login', { replace: true, force: true });
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
      await sessions.reload();
    }
  };

  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Your sessions</h2>
      <p className="hint">
        Every browser where you are signed in. A session ends after 12 hours without use and 7 days after signing in.
        Command-line keys are listed under API keys.
      </p>
      <ErrorNotice error={error ?? sessions.error} />
      {message ? <Notice kind="success">{message}</Notice> : null}
      <DataTable
        items={sessions.data}
        failed={sessions.error !== null}
        columns={['Device', 'Address', 'Signed in', 'Last active', 'Ends']}
        actions
        row={(session) => (
          <tr key={session.id}>
            <th scope="row" title={session.userAgent ?? undefined}>
              {deviceOf(session.userAgent)}
              {session.current ? <span className="badge badge-published">this browser</span> : null}
            </th>
            <td>{session.ipAddress ?? 'unknown'}</td>
            <td>{formatTime(session.issuedAt)}</td>
            <td>{session.lastSeenAt ? formatTime(session.lastSeenAt) : '—'}</td>
            <td>{formatTime(session.expiresAt)}</td>
            <td>
              {session.current ? null : (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => end(session)}
                  aria-label={`Sign out ${deviceOf(session.userAgent)} signed in ${formatTime(session.issuedAt)}`}
                >
                  Sign out this session
                </button>
              )}
            </td>
          </tr>
        )}
      />
      <div className="actions">
        <button type="button" className="danger" disabled={busy || sessions.data === null} onClick={everywhere}>
          Sign out everywhere
        </button>
      </div>
    </section>
  );
}
