/**
 * Where am I (issue 30 item 15): the browser tab names the page, and on a detail page the object
 * first ("HK-KB-01-08 · Device detail · ChargeOps"); a history tab names the object when there is
 * one ("HK-KB-01-08", not "Device detail" twice). Page names are the menu names (routes.tsx).
 */
export const APP_NAME = 'ChargeOps';
const SEP = ' · ';

/** document.title: object, page, app; the parts that are empty are left out. */
export function documentTitle(pageName: string, subject?: string): string {
  return [subject?.trim(), pageName.trim(), APP_NAME].filter(Boolean).join(SEP);
}

/** A history tab's label: the object when the page names one, else the page. */
export function tabLabel(pageName: string, subject?: string): string {
  return subject?.trim() || pageName;
}

type Listener = () => void;
const subjects = new Map<string, string>();
const listeners = new Set<Listener>();

/** The object a page at pathname shows (set by the page once loaded). */
export function subjectOf(pathname: string): string | undefined {
  return subjects.get(pathname);
}

export function setSubject(pathname: string, subject: string | undefined): void {
  if (subject ? subjects.get(pathname) === subject : !subjects.has(pathname)) return;
  if (subject) subjects.set(pathname, subject);
  else subjects.delete(pathname);
  listeners.forEach((l) => l());
}

export function subscribeSubjects(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
