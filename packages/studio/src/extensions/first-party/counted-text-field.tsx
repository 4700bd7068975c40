import { errorKey } from '../../editor/paths.js';
import { Field } from '../../ui/field.js';
import { labelOf } from '../../ui/labels.js';
import type { FieldKindProps } from '../props.js';

/** Longest limit still shown on one line; longer texts get a text area. */
const SINGLE_LINE_MAX = 200;

/**
 * Field kind (domain.content) for a `string` field with a `max` check (an SEO description, a
 * teaser): the input with a live count of characters against the limit, counted as the server
 * does (Unicode code points), so the person sees the limit coming instead of a refused save.
 */
export function CountedTextField({ name, path, field, value, errors, onChange }: FieldKindProps) {
  const key = errorKey(path);
  const error = errors[key];
  const checks = field.checks ?? [];
  const max = checks.find((check) => check.type === 'max')?.value ?? Number.POSITIVE_INFINITY;
  const min = checks.find((check) => check.type === 'min')?.value ?? 0;
  const required = 'required' in field && field.required === true;
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  const count = [...text].length;
  const over = count - max;
  return (
    <Field
      label={
        <>
          {labelOf(name)}
          {required ? <span aria-hidden="true"> *</span> : null}
          {required ? <span className="visually-hidden"> (required)</span> : null}
        </>
      }
      error={error}
    >
      {(control) => {
        const countId = `${control.id}-count`;
        const common = {
          id: control.id,
          'data-field': key,
          'aria-invalid': error || over > 0 ? true : undefined,
          'aria-describedby': [countId, control['aria-describedby']].filter(Boolean).join(' '),
          value: text,
          onChange: (event: { target: { value: string } }) =>
            onChange(path, event.target.value === '' && !required ? undefined : event.target.value),
        } as const;
        return (
          <>
            {max > SINGLE_LINE_MAX || text.includes('\n') ? <textarea rows={3} {...common} /> : <input {...common} />}
            <small id={countId} className={over > 0 ? 'counter counter-over' : 'counter'}>
              {over > 0
                ? `${count} of ${max} characters: ${over} too many`
                : `${count} of ${max} characters${min > 0 && count < min ? ` (at least ${min})` : ''}`}
            </small>
          </>
        );
      }}
    </Field>
  );
}
