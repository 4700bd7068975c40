import { useId } from 'react';

/**
 * The per-type site addresses (`previewUrls`, docs/live-preview.md): one row per content type of the
 * schema, plus any type the map names that the schema no longer has (kept, so saving never drops it).
 * An empty row means the type uses the project's "Site preview address". Checked by the server like
 * `previewUrl`; its message for a row (`body.previewUrls.<type>`) is shown under that row.
 */
export function PreviewUrlsRows(props: {
  typeNames: readonly string[];
  values: Record<string, string>;
  messages: Record<string, string>;
  onChange(next: Record<string, string>): void;
}) {
  const id = useId();
  const names = [...new Set([...props.typeNames, ...Object.keys(props.values)])];
  if (names.length === 0) return null;
  return (
    <fieldset className="preview-urls">
      <legend>Addresses per content type</legend>
      <small id={`${id}-hint`} className="hint">
        A type with an address of its own opens it instead; an empty row uses the site preview address above.
      </small>
      {names.map((name) => {
        const message = props.messages[`body.previewUrls.${name}`];
        const inputId = `${id}-${name}`;
        return (
          <div key={name} className="preview-url-row">
            <label htmlFor={inputId}>Preview address for {name}</label>
            <input
              id={inputId}
              type="url"
              placeholder="(uses the site preview address)"
              value={props.values[name] ?? ''}
              aria-describedby={message ? `${inputId}-error` : `${id}-hint`}
              aria-invalid={message ? true : undefined}
              onChange={(e) => props.onChange({ ...props.values, [name]: e.target.value })}
            />
            {message ? (
              <small id={`${inputId}-error`} className="field-error">
                {message}
              </small>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}

/** The map to send: filled rows only, trimmed; none filled is `null` (no per-type address). */
export function previewUrlsToSend(values: Record<string, string>): Record<string, string> | null {
  const filled = Object.entries(values)
    .map(([name, value]) => [name, value.trim()] as const)
    .filter(([, value]) => value !== '');
  return filled.length > 0 ? Object.fromEntries(filled) : null;
}
