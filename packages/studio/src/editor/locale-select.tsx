import type { SchemaLocales } from '@cms/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { schema, type Target } from '../api/index.js';

/**
 * The locales the schema in force declares (`locales` of cms.config, sent by `cms schema sync`),
 * default first; null when the sync declared none.
 */
export function useSchemaLocales(target: Target): SchemaLocales | null | undefined {
  const query = useQuery({
    queryKey: ['schema-locales', target.project, target.environment],
    // The schema answer carries `locales` beside the types (core's SchemaList).
    queryFn: async () => ((await schema.get(target)) as { locales?: SchemaLocales }).locales ?? null,
    staleTime: 60_000,
  });
  return query.data;
}

/**
 * A new localized document's locale, chosen from the schema's declared locales (a select, never free
 * text that looks filled in by its placeholder); the default locale is chosen to start with. Without
 * declared locales it is a required text field with a hint, so an empty one never reaches the server.
 */
export function LocaleSelect(props: { target: Target; value: string; onChange(locale: string): void }) {
  const locales = useSchemaLocales(props.target);
  const { value, onChange } = props;
  useEffect(() => {
    if (locales && value === '') onChange(locales.default);
  }, [locales, value, onChange]);

  if (locales === undefined) return null;
  if (locales === null || locales.supported.length === 0) {
    return (
      <div className="field">
        <label htmlFor="new-locale">Locale</label>
        <small id="new-locale-hint" className="hint">
          A language code such as en or fr-CA. The schema declares no locales: run cms schema sync with locales in
          cms.config to choose from a list.
        </small>
        <input
          id="new-locale"
          aria-describedby="new-locale-hint"
          value={value}
          required
          onChange={(event) => onChange(event.target.value.trim())}
          data-field="locale"
        />
      </div>
    );
  }
  const choices = [locales.default, ...locales.supported.filter((locale) => locale !== locales.default)];
  return (
    <div className="field">
      <label htmlFor="new-locale">Locale</label>
      <select id="new-locale" value={value} onChange={(event) => onChange(event.target.value)} data-field="locale">
        {choices.map((locale) => (
          <option key={locale} value={locale}>
            {locale}
            {locale === locales.default ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
