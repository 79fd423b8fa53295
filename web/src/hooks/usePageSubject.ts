/** Pages name the object they show (a device's SN, a site's name) for the tab title and history tab. */
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { setSubject, subjectOf, subscribeSubjects } from '../utils/title';

/** A detail page announces its object once loaded (undefined while loading). */
export function usePageSubject(subject: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    setSubject(pathname, subject);
  }, [pathname, subject]);
}

/** The object the page at pathname named, if any. */
export function useSubjectOf(pathname: string): string | undefined {
  return useSyncExternalStore(subscribeSubjects, () => subjectOf(pathname));
}
