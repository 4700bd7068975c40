import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { content } from '../../api/index.js';
import { useStudio } from '../../state/studio-context.js';
import { labelOf } from '../../ui/labels.js';
import { useDebouncedValue } from '../../ui/use-debounced-value.js';

/** A document the activity is narrowed to: its id, and its title as the person chose it. */
export interface ChosenDocument {
  documentId: string;
  title: string;
  type: string;
}

/** How many matches the search offers at once. */
const MATCHES = 8;

/**
 * "Document": the activity of one document, found by its title (the server's search, as you type;
 * the last word matches as a prefix), never by typing an id. The matches are buttons; the chosen one
 * shows with **Clear**.
 */
export function DocumentFilter({
  chosen,
  onChoose,
}: {
  chosen: ChosenDocument | null;
  onChoose(document: ChosenDocument | null): void;
}) {
  const { target } = useStudio();
  const id = useId();
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim());
  const matches = useQuery({
    queryKey: ['activity-document-search', target.project, target.environment, q],
    queryFn: () => content.search(target, q, { limit: MATCHES }),
    enabled: q !== '' && chosen === null,
    placeholderData: keepPreviousData,
  });

  if (chosen) {
    return (
      <fieldset className="document-filter">
        <legend>Document</legend>
        <span>
          “{chosen.title}” ({labelOf(chosen.type)})
        </span>{' '}
        <button type="button" onClick={() => onChoose(null)}>
          Clear document
        </button>
      </fieldset>
    );
  }
  const hits = q === '' ? [] : (matches.data?.data ?? []);
  return (
    <div className="document-filter">
      <label htmlFor={`${id}-q`}>Document</label>
      <input
        id={`${id}-q`}
        type="search"
        value={text}
        placeholder="Search by title"
        aria-describedby={`${id}-status`}
        onChange={(event) => setText(event.target.value)}
      />
      <p id={`${id}-status`} className="visually-hidden" aria-live="polite">
        {q === '' ? '' : matches.isFetching ? 'Searching…' : `${hits.length} documents found`}
      </p>
      {hits.length > 0 ? (
        <ul className="plain document-matches" aria-label="Matching documents">
          {hits.map((hit) => (
            <li key={hit.documentId}>
              <button
                type="button"
                onClick={() => {
                  onChoose({ documentId: hit.documentId, title: hit.title ?? hit.path, type: hit.type });
                  setText('');
                }}
              >
                {hit.title ?? hit.path} <span className="muted">({labelOf(hit.type)})</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
