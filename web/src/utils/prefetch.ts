/**
 * Page chunks of the sidebar entries a user may open, loaded one after another while the browser
 * is idle after the console shows, so that a click on the sidebar waits only for its data, not
 * for its code (docs/benchmarks.md, "Console first load").
 */
import type { PageLoader } from './routeDef';
import type { MenuNode } from './menu';

/** The distinct page loaders of a built menu's items, in menu order. */
export function menuPages(nodes: MenuNode[]): PageLoader[] {
  const out: PageLoader[] = [];
  const walk = (ns: MenuNode[]) => {
    for (const n of ns) {
      if (n.page && !out.includes(n.page)) out.push(n.page);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

type Schedule = (run: () => void) => () => void;

/** Runs when the browser is idle (or after a short pause where requestIdleCallback is missing). */
const whenIdle: Schedule = (run) => {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
};

/**
 * Loads the pages one at a time, each in an idle moment; returns a function that stops what has
 * not started. A page that fails to load is skipped (its route shows the error when opened).
 */
export function prefetchPages(pages: PageLoader[], schedule: Schedule = whenIdle): () => void {
  let stopped = false;
  let cancel = () => {};
  const next = (i: number) => {
    if (stopped || i >= pages.length) return;
    cancel = schedule(() => {
      if (stopped) return;
      pages[i]()
        .catch(() => undefined)
        .finally(() => next(i + 1));
    });
  };
  next(0);
  return () => {
    stopped = true;
    cancel();
  };
}
