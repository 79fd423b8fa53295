/**
 * Components fetched after the page renders: the ECharts canvas (charts/EChart.tsx, ~160 KB
 * gzipped), page sections that wait for their own data anyway, and dialogs (mounted when first
 * opened). The code is imported when the
 * component first renders, so it is not part of the route's first load (scripts/budget.mjs
 * counts only the static imports of the route's chunks); meanwhile the fallback holds the
 * place at the same size. Once loaded, new mounts render at once. A chunk that cannot be
 * loaded (a new release removed it) shows `failed`; main.tsx offers the reload.
 */
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';

type Module<P> = { default: ComponentType<P> };

export function deferred<P extends object>(load: () => Promise<Module<P>>, Fallback: ComponentType<P>, failed?: ComponentType<P>) {
  const Failed: ComponentType<P> = failed ?? Fallback;
  const Lazy = lazy(() =>
    load().then(
      // vite's preload helper resolves undefined when main.tsx handles the preload error
      (m): Module<P> => (m?.default ? m : { default: Failed }),
      (): Module<P> => ({ default: Failed }),
    ),
  ) as unknown as ComponentType<P>;
  function Deferred(props: P) {
    return (
      <Suspense fallback={<Fallback {...props} />}>
        <Lazy {...(props as ComponentProps<typeof Lazy>)} />
      </Suspense>
    );
  }
  return Deferred;
}
