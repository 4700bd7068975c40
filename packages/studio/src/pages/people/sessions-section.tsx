/**
 * The signed-in person's own sessions (`GET /api/v1/auth/sessions`): where and when each signed in,
 * ending one, and "Sign out everywhere", which ends every other session and then this one
 * (`DELETE /api/v1/auth/sessions/{id}` each; the last answer clears this browser's cookies).
 */
import { useCallback, useEffect, useState } from 'react';
import { type ApiError, people, type Session } from '../../api/index.js';
import { navigate } from '../../router.js';
import { toApiError } from '../../state/studio-context.js';
import { ErrorNotice, Loading, Notice } from '../../ui/notice.js';
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
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const list = await people.sessions();
      list.sort(
        (a, b) => Number(Boolean(b.current)) - Number(Boolean(a.current)) || b.issuedAt.localeCompare(a.issuedAt),
      );
      setSessions(list);
    } catch (caught) {
      setError(toApiError(caught));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const end = async (session: Session) => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      await people.endSession(session.id);
      setMessage(`Signed out ${deviceOf(session.userAgent)}.`);
      await load();
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
      await load();
    }
  };

  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Your sessions</h2>
      <p className="hint">
        Every browser where you are signed in. A session ends after 12 hours without use and 7 days after signing in.
        Command-line keys are listed under API keys.
      </p>
      <ErrorNotice error={error} />
      {message ? <Notice kind="success">{message}</Notice> : null}
      {sessions === null && !error ? <Loading /> : null}
      {sessions && sessions.length > 0 ? (
        <div className="table-scroll">
          <table className="list admin-table">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">Ends</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
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
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div className="actions">
        <button type="button" className="danger" disabled={busy || sessions === null} onClick={everywhere}>
          Sign out everywhere
        </button>
      </div>
    </section>
  );
}
