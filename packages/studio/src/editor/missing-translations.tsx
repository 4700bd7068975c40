import { useQuery } from '@tanstack/react-query';
import { content, type Target } from '../api/index.js';
import { useSchemaLocales } from './locale-select.js';

/**
 * The schema's declared locales this document's translation group has no variant in yet, so an
 * editor sees what is left to translate (use "Translate into" to start one). Nothing when the schema
 * declares no locales.
 */
export function MissingTranslations({ target, documentId }: { target: Target; documentId: string }) {
  const locales = useSchemaLocales(target);
  const variants = useQuery({
    queryKey: ['variants', target.project, target.environment, documentId],
    queryFn: () => content.variants(target, documentId),
  });
  if (!locales || !variants.data) return null;
  const present = new Set(variants.data.map((variant) => variant.locale));
  const missing = locales.supported.filter((locale) => !present.has(locale));
  return (
    <section className="missing-translations" aria-labelledby="missing-translations-title">
      <h3 id="missing-translations-title">Missing translations</h3>
      {missing.length === 0 ? (
        <p className="muted">Translated into every locale the schema declares.</p>
      ) : (
        <>
          <p className="muted">
            {missing.length} of {locales.supported.length} declared locales have no version yet:
          </p>
          <ul>
            {missing.map((locale) => (
              <li key={locale}>{locale}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
