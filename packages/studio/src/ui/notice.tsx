import type { ReactNode } from 'react';
import type { CmsError } from '../api/index.js';

/** What an error notice shows: the message (the server's, or the page's words for its code), the code, the request id. */
export type ShownError = Pick<CmsError, 'message' | 'requestId'> & { code: string };

/**
 * An API error in words, with what support needs (the code and the request id) behind a "Details"
 * toggle: an editor reads the sentence, not `CONTENT_PATH_CONFLICT` or a request id.
 */
export function ErrorNotice({ error, title }: { error: ShownError | null; title?: string }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      {title ? <strong>{title} </strong> : null}
      <span>{error.message}</span>
      <details className="notice-meta">
        <summary>Details</summary>
        <small>
          Error code {error.code}
          {error.requestId ? `, request ${error.requestId}` : ''}. Give these to an administrator if the problem stays.
        </small>
      </details>
    </div>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'warning'; children: ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'info' ? 'status' : 'alert'}>
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
