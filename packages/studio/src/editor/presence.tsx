import type { Presence } from '@cms/core';
import { useEffect, useState } from 'react';
import { content, type Target } from '../api/index.js';
import { subscribeToDocumentEvents } from './document-events.js';

/**
 * "Also editing: <name>" (decisions.md §8): while the document is open here, its event stream
 * (editor/document-events.ts) keeps this person marked as present on the server and delivers
 * `presence` whenever someone else opens or leaves it, through whichever server process; closing the
 * editor (or the tab) closes the stream and says so (`DELETE /presence`), which removes the mark
 * (docs/studio.md "Presence").
 */
export function PresenceNotice({ target, documentId }: { target: Target; documentId: string }) {
  const [presence, setPresence] = useState<Presence | null>(null);
  const { project, environment } = target;

  useEffect(() => {
    setPresence(null);
    const unsubscribe = subscribeToDocumentEvents({ project, environment }, documentId, { presence: setPresence });
    // Closing the stream is enough in principle, but a browser may keep an aborted stream's connection
    // open for seconds: saying so ends it at once (the server ends the stream whose mark is gone).
    const leave = () => void content.leave({ project, environment }, documentId).catch(() => undefined);
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      unsubscribe();
      leave();
    };
  }, [project, environment, documentId]);

  const names = [...new Set((presence?.editors ?? []).map((editor) => editor.name))];
  return (
    <p className="presence" role="status" aria-live="polite">
      {names.length > 0 ? (
        <>
          <strong>Also editing: {names.join(', ')}</strong>
          <span className="muted">
            {' '}
            — save often; if you both change the same field, you will be asked how to merge.
          </span>
        </>
      ) : null}
    </p>
  );
}
