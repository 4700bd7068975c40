import type { ReactNode } from 'react';
import type { ApiError } from '../api/index.js';

/** What an error notice shows: the message (the server's, or the page's words for its code), the code, the request id. */
export type ShownError = Pick<ApiError, 'message' | 'code' | 'requestId'>;

/** An API error as the server said it, with its code and request id for support. */
export function ErrorNotice({ error, title }: { error: ShownError | null; title?: string }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      {title ? <strong>{title} </strong> : null}
      <span>{error.message}</span>
      <small className="notice-meta">
        {' '}
        ({error.code}
        {error.requestId ? `, request ${error.requestId}` : ''})
      </small>
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
