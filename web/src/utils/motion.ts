/**
 * The reader's "reduce motion" setting (prefers-reduced-motion, set in the operating system or
 * the browser): read once at load. With it, antd's dialogs, drawers, menus and toasts appear
 * without their zoom and slide (theme.ts) and charts draw without their grow-in (useEChart).
 */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The chart option with its animation off when motion is reduced; the same object otherwise. */
export function chartMotion<T extends object>(option: T, reduced: boolean): T {
  return reduced ? { ...option, animation: false } : option;
}

/** prefersReducedMotion() as read when the console loaded. */
export const REDUCED_MOTION = prefersReducedMotion();
