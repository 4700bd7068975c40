import { useState } from 'react';
import { type CmsError, type ContentDocument, content } from '../api/index.js';
import { toApiError, useStudio } from '../state/studio-context.js';

/**
 * Publishing one document from the editor (the built-in button and the first-party control with a
 * change summary): busy while it runs, then the version it became or the refusal.
 */
export function usePublish(doc: ContentDocument, onChanged: () => Promise<void>) {
  const { target } = useStudio();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CmsError | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  /** Publishes the draft with an optional change summary; true when it was published. */
  const publish = async (summary?: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const result = await content.publish(target, doc.documentId, summary);
      await onChanged();
      setMessage(`Published as version ${result.version}.`);
      return true;
    } catch (caught) {
      setError(toApiError(caught));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return { busy, error, message, publish };
}
