import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type ContentDocument, content, type Target } from '../api/index.js';
import { labelOf } from '../ui/labels.js';
import { showValue } from './text-diff.js';

/**
 * Two locales of one translation group side by side: the document open here (as last saved) and the
 * variant chosen in "Compare with", field by field, then both bodies, so a translator sees what each
 * says without switching documents. Read-only: each side is edited in its own document.
 */
export function TranslationCompare({ target, doc }: { target: Target; doc: ContentDocument }) {
  const id = useId();
  const [other, setOther] = useState('');
  const variants = useQuery({
    queryKey: ['variants', target.project, target.environment, doc.documentId],
    queryFn: () => content.variants(target, doc.documentId),
  });
  const chosen = useQuery({
    queryKey: ['document', target.project, target.environment, other],
    queryFn: () => content.get(target, other),
    enabled: other !== '',
  });
  const others = (variants.data ?? []).filter((variant) => variant.documentId !== doc.documentId);
  if (others.length === 0) return null;
  const theirs = other !== '' ? chosen.data : undefined;
  const keys = theirs ? [...new Set([...Object.keys(doc.frontmatter), ...Object.keys(theirs.frontmatter)])] : [];

  return (
    <section className="translation-compare" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Side by side</h3>
      <div className="field">
        <label htmlFor={`${id}-locale`}>Compare with</label>
        <select id={`${id}-locale`} value={other} onChange={(event) => setOther(event.target.value)}>
          <option value="">Choose a locale…</option>
          {others.map((variant) => (
            <option key={variant.documentId} value={variant.documentId}>
              {variant.locale}
            </option>
          ))}
        </select>
      </div>
      {other !== '' && chosen.isPending ? <p className="muted">Loading…</p> : null}
      {theirs ? (
        <table className="compare">
          <caption>
            {doc.locale} and {theirs.locale}, field by field
          </caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col" lang={doc.locale}>
                {doc.locale} (this document)
              </th>
              <th scope="col" lang={theirs.locale}>
                {theirs.locale}
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key}>
                <th scope="row">{labelOf(key)}</th>
                <td lang={doc.locale}>
                  <pre>{showValue(doc.frontmatter[key])}</pre>
                </td>
                <td lang={theirs.locale}>
                  <pre>{showValue(theirs.frontmatter[key])}</pre>
                </td>
              </tr>
            ))}
            <tr>
              <th scope="row">Body</th>
              <td lang={doc.locale}>
                <pre>{doc.body}</pre>
              </td>
              <td lang={theirs.locale}>
                <pre>{theirs.body}</pre>
              </td>
            </tr>
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
