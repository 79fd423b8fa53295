/** Session (POST /api/unauth/info) and public config (GET /api/unauth/config) in TanStack Query. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getConfig, getSessionInfo } from '../services/auth';
import { queryClient } from '../services/queryClient';
import { isCancelled } from '../services/request';
import type { AppConfig, SessionInfo } from '../services/typings';
import { subjectOf, type Subject } from '../access';
import { DEFAULT_LOCALE } from '../i18n';
import { clearTabs } from '../utils/history';
import { DEFAULT_TIME_ZONE } from '../utils/time';

export const SESSION_KEY = ['session'] as const;
export const CONFIG_KEY = ['config'] as const;

/** Info failing (no session, expired, network) means: no session; the guards go to /login. */
export async function fetchSession(): Promise<SessionInfo | null> {
  try {
    return await getSessionInfo();
  } catch (e) {
    if (isCancelled(e)) throw e;
    return null;
  }
}

/** Forgets the local session: logout and the session-expired codes (20001-20004) come here. */
export function clearSession(): void {
  clearTabs();
  queryClient.setQueryData(SESSION_KEY, null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] && q.queryKey[0] !== CONFIG_KEY[0] });
}

export function refreshSession() {
  return queryClient.fetchQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 0 });
}

/**
 * After the privacy policy is accepted: the session says so, and what the pages asked while it
 * was owed (refused with 20014) is asked again.
 */
export async function privacyAccepted(): Promise<void> {
  await refreshSession();
  await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] && q.queryKey[0] !== CONFIG_KEY[0] });
}

export function useSession(): { session: SessionInfo | null; subject: Subject | null; loading: boolean } {
  const q = useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: Infinity });
  const session = q.data ?? null;
  const subject = useMemo(() => subjectOf(session), [session]);
  return { session, subject, loading: q.isPending };
}

export const defaultConfig: AppConfig = {
  captcha: true,
  defaultLocale: DEFAULT_LOCALE,
  showLanguageSwitch: false,
  timeZone: DEFAULT_TIME_ZONE,
  version: '',
};

export function useAppConfig(): { config: AppConfig; loading: boolean } {
  const q = useQuery({
    queryKey: CONFIG_KEY,
    queryFn: async () => {
      try {
        return { ...defaultConfig, ...(await getConfig()) };
      } catch (e) {
        if (isCancelled(e)) throw e;
        return defaultConfig;
      }
    },
    staleTime: Infinity,
  });
  return { config: q.data ?? defaultConfig, loading: q.isPending };
}
