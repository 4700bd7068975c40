import { isRole, ROLES, type Role } from '@cms/core/scopes';
import type { SelectHTMLAttributes } from 'react';

/** What each instance role means, shown beside the role pickers (docs/access-control.md "Users"). */
export const ROLE_HELP =
  'admin: everything, everywhere. editor, author, viewer: nothing by the role alone; access comes from grants per project.';

/**
 * A choice of one of core's roles (admin, editor, author, viewer). `value` may be any role string
 * the server answered; `onChange` only ever gives a role.
 */
export function RoleSelect({
  value,
  onChange,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  value: string;
  onChange: (role: Role) => void;
}) {
  return (
    <select {...select} value={value} onChange={(event) => isRole(event.target.value) && onChange(event.target.value)}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}
