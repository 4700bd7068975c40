import type { Scope } from '@cms/core';
import type { AnyAction } from './define-action.js';

/**
 * What the catalog and OpenAPI say a key needs. `permissions` (interface.md "Action catalog item")
 * lists every scope that lets a key call the action: the required ones and, where the action takes
 * one of several (`anyPermissions`: `content:write` or `content:write:draft`), the first of them, so
 * a client reading `permissions` alone never learns "no scope needed" for a guarded action.
 * `anyPermissions` is the addition saying which alternatives also suffice instead of that first one.
 */
export function catalogPermissions(action: AnyAction): {
  permissions: readonly Scope[];
  anyPermissions?: readonly Scope[];
} {
  const [first] = action.anyPermissions ?? [];
  if (!first) return { permissions: action.permissions };
  const permissions = action.permissions.includes(first) ? action.permissions : [...action.permissions, first];
  return { permissions, anyPermissions: action.anyPermissions as readonly Scope[] };
}
