import type { ReactNode } from 'react';

/** The frame of the pages reached before signing in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          CMS Studio
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
