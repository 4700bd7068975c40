import { editorFieldMessage } from '../ui/editor-words.js';
import { labelOf } from '../ui/labels.js';

/** `frontmatter.seo.tags[1]` -> `Seo › Tags › 2`: errors named by labels, not keys. */
export function fieldLabel(key: string): string {
  const parts = key
    .replace(/^frontmatter\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== '');
  if (parts.length === 0) return 'Frontmatter';
  return parts.map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : labelOf(part))).join(' › ');
}

/** Opens the collapsed groups holding a field, then focuses it. */
export function focusField(key: string): void {
  const find = () => document.querySelector<HTMLElement>(`[data-field="${CSS.escape(key)}"]`);
  const found = find();
  if (found) {
    found.focus();
    return;
  }
  const groups = [...document.querySelectorAll<HTMLButtonElement>('button[data-group][aria-expanded="false"]')];
  for (const group of groups) if (key.startsWith(group.dataset.group ?? '\0')) group.click();
  window.requestAnimationFrame(() => find()?.focus());
}

/** The list of what stops the save, on top of the form; each entry takes you to its field. */
export function ErrorSummary({ errors }: { errors: Record<string, string> }) {
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return (
    <div className="notice notice-error error-summary" role="alert" aria-labelledby="error-summary-title">
      <p id="error-summary-title">
        <strong>
          {entries.length === 1 ? 'One field needs attention' : `${entries.length} fields need attention`} before
          saving:
        </strong>
      </p>
      <ul>
        {entries.map(([key, message]) => (
          <li key={key}>
            <a
              href={`#${key}`}
              onClick={(event) => {
                event.preventDefault();
                focusField(key);
              }}
            >
              {fieldLabel(key)}: {editorFieldMessage(message)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
