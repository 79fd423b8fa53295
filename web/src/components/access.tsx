/** Element-level permission checks (spec §6) over the pure helpers of access.ts. */
import { useCallback, type ReactNode } from 'react';
import { holdsByMode } from '../access';
import { useSession } from '../models/session';

/** can('auth_x') or can(['a', 'b'], 'all'): root passes every check. */
export function useCan() {
  const { subject } = useSession();
  return useCallback(
    (keys: string | readonly string[], mode: 'any' | 'all' = 'any') => holdsByMode(subject, typeof keys === 'string' ? [keys] : keys, mode),
    [subject],
  );
}

/** Renders children only when the user holds the keys. */
export function Can({ keys, mode = 'any', children }: { keys: string | readonly string[]; mode?: 'any' | 'all'; children: ReactNode }) {
  const can = useCan();
  return can(keys, mode) ? <>{children}</> : null;
}
