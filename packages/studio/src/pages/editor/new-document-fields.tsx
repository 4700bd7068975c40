import type { Target } from '../../api/index.js';
import { LocaleSelect } from '../../editor/locale-select.js';
import type { DocumentState } from './use-document.js';

/** A new document's path, locale (for a localized type) and format, before its first save. */
export function NewDocumentFields({
  state,
  localized,
  target,
}: {
  state: DocumentState['newDocument'];
  localized: boolean;
  target: Target;
}) {
  return (
    <fieldset className="group">
      <legend>Document</legend>
      <div className="field">
        <label htmlFor="new-path">Path</label>
        <small className="hint" id="new-path-hint">
          Where the file lives, e.g. hello-world or guides/intro.
        </small>
        <input
          id="new-path"
          aria-describedby="new-path-hint"
          value={state.path}
          required
          onChange={(e) => state.setNewPath(e.target.value)}
          data-field="path"
        />
      </div>
      {localized ? <LocaleSelect target={target} value={state.locale} onChange={state.setNewLocale} /> : null}
      <div className="field">
        <label htmlFor="new-format">Format</label>
        <select
          id="new-format"
          value={state.format}
          onChange={(e) => state.setNewFormat(e.target.value as 'md' | 'mdx')}
        >
          <option value="md">Markdown</option>
          <option value="mdx">MDX</option>
        </select>
      </div>
    </fieldset>
  );
}
