/**
 * Element-level permission checks (docs/decisions.md#route-keys) over the pure helpers of access.ts: modes any
 * (default), all and none. Root holds every key, so root sees any/all content and not "none"
 * content (holdsByMode in access.ts).
 */
import { useCallback, type ReactNode } from 'react';
import { holdsByMode, type DirectiveMode, type PermissionKey } from '../access';
import { useSession } from '../models/session';

/** can('auth_x'), can(['a', 'b'], 'all') or can(['a'], 'none'). */
export function useCan() {
  const { subject } = useSession();
  return useCallback(
    (keys: PermissionKey | readonly PermissionKey[], mode: DirectiveMode = 'any') => holdsByMode(subject, typeof keys === 'string' ? [keys] : keys, mode),
    [subject],
  );
}

/** Renders children only when the user's keys match in the mode (none: holds none of them). */
export function Can({ keys, mode = 'any', children }: { keys: PermissionKey | readonly PermissionKey[]; mode?: DirectiveMode; children: ReactNode }) {
  const can = useCan();
  return can(keys, mode) ? <>{children}</> : null;
}
