import { type ReactNode, useId, useState } from 'react';
import type { FieldKindProps } from '../extensions/props.js';
import { editorFieldMessage } from '../ui/editor-words.js';
import { labelOf } from '../ui/labels.js';
import { MediaPicker } from './media-picker.js';
import { errorKey, type Path } from './paths.js';
import { ReferencePicker } from './reference-picker.js';

/** A built-in field's props: a field kind's, and the document's resolved reference labels. */
export interface FieldProps extends FieldKindProps {
  /** Reference labels resolved in one batch for the loaded document. */
  referenceLabels: Record<string, string>;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Error count under a path (for collapsed containers). */
function errorsUnder(errors: Record<string, string>, path: Path): number {
  const prefix = errorKey(path);
  return Object.keys(errors).filter(
    (key) => key === prefix || key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}[`),
  ).length;
}

/** One frontmatter field, generated from its metadata; objects and arrays recurse. */
export function FieldInput(props: FieldProps) {
  const { name, path, field, value, errors, onChange } = props;
  const id = useId();
  const key = errorKey(path);
  const error = errors[key];
  const label = labelOf(name);
  const required = 'required' in field && field.required;
  const describedBy = error ? `${id}-error` : undefined;
  const common = {
    id,
    'data-field': key,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  } as const;
  const checks = field.checks ?? [];
  const hint = describeChecks(field);
  const errorLine = error ? (
    <small id={`${id}-error`} className="field-error">
      {editorFieldMessage(error)}
    </small>
  ) : null;
  const labelLine = (
    <label htmlFor={id}>
      {label}
      {required ? <span aria-hidden="true"> *</span> : null}
      {required ? <span className="visually-hidden"> (required)</span> : null}
    </label>
  );

  switch (field.kind) {
    case 'boolean':
      return (
        <div className="field field-inline">
          <input
            type="checkbox"
            {...common}
            checked={value === true}
            onChange={(e) => onChange(path, e.target.checked)}
          />
          {labelLine}
          {errorLine}
        </div>
      );
    case 'number':
      return (
        <div className="field">
          {labelLine}
          {hint ? <small className="hint">{hint}</small> : null}
          <NumberInput common={common} value={value} onChange={(next) => onChange(path, next)} />
          {errorLine}
        </div>
      );
    case 'enum':
      return (
        <div className="field">
          {labelLine}
          <select
            {...common}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(path, e.target.value || undefined)}
          >
            <option value="">{required ? 'Choose…' : '(none)'}</option>
            {(field.values ?? []).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          {errorLine}
        </div>
      );
    case 'date': {
      // Keep the value's shape: a date-only value stays date-only, a timestamp keeps its offset.
      const text = typeof value === 'string' ? value : '';
      const dateOnly = text === '' || DATE_ONLY.test(text);
      return (
        <div className="field">
          {labelLine}
          {!dateOnly ? <small className="hint">ISO 8601 date and time, e.g. 2026-01-31T09:30:00+01:00</small> : null}
          <input
            type={dateOnly ? 'date' : 'text'}
            {...common}
            value={text}
            onChange={(e) => onChange(path, e.target.value === '' ? undefined : e.target.value)}
          />
          {errorLine}
        </div>
      );
    }
    case 'reference':
      return (
        <div className="field">
          {labelLine}
          <ReferencePicker
            inputId={id}
            describedBy={describedBy}
            invalid={Boolean(error)}
            targetType={('reference' in field && field.reference?.targetType) || ''}
            value={typeof value === 'string' ? value : null}
            knownLabel={typeof value === 'string' ? props.referenceLabels[value] : undefined}
            onChange={(next) => onChange(path, next ?? undefined)}
          />
          {errorLine}
        </div>
      );
    case 'object':
      return <ObjectField {...props} />;
    case 'array':
      return <ArrayField {...props} />;
    default: {
      const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
      const long = checks.some((c) => c.type === 'max' && c.value > 200) || text.length > 120 || text.includes('\n');
      return (
        <div className="field">
          {labelLine}
          {hint ? <small className="hint">{hint}</small> : null}
          {long ? (
            <textarea
              {...common}
              rows={3}
              value={text}
              onChange={(e) => onChange(path, e.target.value === '' ? undefined : e.target.value)}
            />
          ) : (
            <input
              type={
                checks.some((c) => c.type === 'url') ? 'url' : checks.some((c) => c.type === 'email') ? 'email' : 'text'
              }
              {...common}
              value={text}
              onChange={(e) => onChange(path, e.target.value === '' && !required ? undefined : e.target.value)}
            />
          )}
          {/* A media field is a string holding the file's address (a `url` check): offer the library. */}
          {checks.some((c) => c.type === 'url') ? (
            <MediaPicker
              buttonLabel={`Choose media for ${label}`}
              verb="Choose"
              onInsert={(a) => onChange(path, a.url)}
            />
          ) : null}
          {errorLine}
        </div>
      );
    }
  }
}

function NumberInput({
  common,
  value,
  onChange,
}: {
  common: Record<string, unknown>;
  value: unknown;
  onChange(v: unknown): void;
}) {
  // The typed text is kept while it is not a number yet ("1e", "-"), so typing is never undone.
  const [text, setText] = useState(typeof value === 'number' ? String(value) : '');
  return (
    <input
      type="text"
      inputMode="decimal"
      {...common}
      value={typeof value === 'number' && Number(text) !== value ? String(value) : text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        if (next.trim() === '') onChange(undefined);
        else if (Number.isFinite(Number(next))) onChange(Number(next));
        else onChange(next);
      }}
    />
  );
}

/**
 * The legend of a collapsible group (an object, an array): the button that opens and closes it
 * (found by the error summary through `data-group`) and how many errors are inside.
 */
function GroupLegend({
  path,
  errors,
  open,
  onToggle,
  children,
}: {
  path: Path;
  errors: Record<string, string>;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const count = errorsUnder(errors, path);
  return (
    <legend>
      <button type="button" className="link" aria-expanded={open} onClick={onToggle} data-group={errorKey(path)}>
        {children}
      </button>
      {count > 0 ? (
        <span className="badge badge-error">
          {count} {count === 1 ? 'error' : 'errors'}
        </span>
      ) : null}
    </legend>
  );
}

function ObjectField(props: FieldProps) {
  const { name, path, field, value, errors } = props;
  const [open, setOpen] = useState(true);
  const children = field.fields ?? {};
  return (
    <fieldset className="group">
      <GroupLegend path={path} errors={errors} open={open} onToggle={() => setOpen(!open)}>
        {labelOf(name)}
      </GroupLegend>
      {open
        ? Object.entries(children).map(([childName, child]) => (
            <FieldInput
              key={childName}
              {...props}
              name={childName}
              path={[...path, childName]}
              field={child}
              value={value && typeof value === 'object' ? (value as Record<string, unknown>)[childName] : undefined}
            />
          ))
        : null}
    </fieldset>
  );
}

function ArrayField(props: FieldProps) {
  const { name, path, field, value, errors, onChange } = props;
  const items = Array.isArray(value) ? value : [];
  const itemField = 'items' in field ? field.items : undefined;
  const [open, setOpen] = useState(true);
  if (!itemField) return null;
  const move = (from: number, to: number) => {
    const copy = [...items];
    const [moved] = copy.splice(from, 1);
    copy.splice(to, 0, moved);
    onChange(path, copy);
  };
  const empty =
    itemField.kind === 'object' ? {} : itemField.kind === 'boolean' ? false : itemField.kind === 'number' ? 0 : '';
  return (
    <fieldset className="group">
      <GroupLegend path={path} errors={errors} open={open} onToggle={() => setOpen(!open)}>
        {labelOf(name)} ({items.length})
      </GroupLegend>
      {errors[errorKey(path)] ? (
        <small className="field-error">{editorFieldMessage(errors[errorKey(path)] as string)}</small>
      ) : null}
      {open ? (
        <ol className="array-items">
          {items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions of the array
            <li key={index} className="array-item">
              <FieldInput
                {...props}
                name={`${name} ${index + 1}`}
                path={[...path, index]}
                field={{ ...itemField, required: true, nullable: false }}
                value={item}
              />
              <div className="row-actions">
                <button
                  type="button"
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                  aria-label={`Move ${labelOf(name)} ${index + 1} up`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1)}
                  aria-label={`Move ${labelOf(name)} ${index + 1} down`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  onClick={() =>
                    onChange(
                      path,
                      items.filter((_, i) => i !== index),
                    )
                  }
                  aria-label={`Remove ${labelOf(name)} ${index + 1}`}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {open ? (
        <button type="button" onClick={() => onChange(path, [...items, empty])}>
          Add {labelOf(name).toLowerCase()}
        </button>
      ) : null}
    </fieldset>
  );
}

function describeChecks(field: FieldProps['field']): string {
  const parts: string[] = [];
  for (const check of field.checks ?? []) {
    if (check.type === 'min')
      parts.push(field.kind === 'number' ? `at least ${check.value}` : `at least ${check.value} characters`);
    if (check.type === 'max')
      parts.push(field.kind === 'number' ? `at most ${check.value}` : `at most ${check.value} characters`);
    if (check.type === 'url') parts.push('a web address');
    if (check.type === 'email') parts.push('an email address');
  }
  return parts.length ? `${parts.join(', ')}.` : '';
}
