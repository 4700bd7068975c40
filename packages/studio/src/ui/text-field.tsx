import type { InputHTMLAttributes } from 'react';
import { Field } from './field.js';

/** An input with a visible label, its hint and its error tied to it for assistive technology. */
export function TextField({
  label,
  hint,
  error,
  id,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string | null }) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(control) => <input {...control} {...input} />}
    </Field>
  );
}
