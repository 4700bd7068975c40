import { type ReactNode, useId } from 'react';

/** What a field hands its control: the id its label names, and its hint and error tied to it. */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A control with a visible label, its hint and its error tied to it for assistive technology; the
 * control itself (an input, a select) is rendered by `children` with the attributes it needs.
 *
 * @example <Field label="Role">{(control) => <RoleSelect {...control} value={role} onChange={setRole} />}</Field>
 */
export function Field({
  id: fixedId,
  label,
  hint,
  error,
  children,
}: {
  /** A fixed id for the control (its hint and error ids derive from it); a generated one otherwise. */
  id?: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: (control: FieldControl) => ReactNode;
}) {
  const generated = useId();
  const id = fixedId ?? generated;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}
