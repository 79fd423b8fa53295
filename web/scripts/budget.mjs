// The first-load size budget: for each route, the entry (index.html's script) with its static
// imports, plus the route's lazy chunks with theirs, and their style sheets, summed as the
// gzip files the server sends (written by scripts/compress.mjs). Reads dist/.vite/manifest.json.
// `node scripts/budget.mjs` prints the table and fails over budget; e2e/tests/speed.test.mjs
// runs the same check.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DIST = join(import.meta.dirname, '..', 'dist');

/** Budgets in gzipped bytes, and the modules a route loads lazily (see src/router.tsx, src/routes.tsx). */
export const BUDGETS = [
  { route: '/login', limit: 250 * 1024, lazy: ['src/pages/user/Login.tsx'] },
  { route: '/manage/home', limit: 400 * 1024, lazy: ['src/layouts/ManageLayout.tsx', 'src/pages/NotAvailable.tsx'] },
];

function gzSize(dist, file) {
  const gz = join(dist, `${file}.gz`);
  // compress.mjs skips files that would not shrink: those go out as they are.
  return existsSync(gz) ? statSync(gz).size : statSync(join(dist, file)).size;
}

/** The files a route loads before it shows, with their gzipped sizes. */
export function routeFiles(lazy, dist = DIST) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('manifest has no entry');
  const seen = new Set();
  const files = new Map();
  const walk = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest (renamed? update BUDGETS in scripts/budget.mjs)`);
    seen.add(key);
    files.set(chunk.file, gzSize(dist, chunk.file));
    for (const css of chunk.css ?? []) files.set(css, gzSize(dist, css));
    for (const k of chunk.imports ?? []) walk(k);
  };
  walk(entry);
  for (const k of lazy) walk(k);
  return files;
}

export function checkBudgets(dist = DIST) {
  return BUDGETS.map((b) => {
    const files = routeFiles(b.lazy, dist);
    const total = [...files.values()].reduce((a, n) => a + n, 0);
    return { ...b, total, files };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let over = false;
  for (const r of checkBudgets()) {
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`${r.route}: ${kb(r.total)} gzipped in ${r.files.size} files (budget ${kb(r.limit)})`);
    const top = [...r.files].sort((a, b) => b[1] - a[1]).slice(0, 8);
    for (const [f, n] of top) console.log(`  ${kb(n).padStart(9)}  ${f}`);
    if (r.total > r.limit) over = true;
  }
  if (over) {
    console.error('over budget');
    process.exit(1);
  }
}
