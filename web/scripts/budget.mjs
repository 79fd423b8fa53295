// The first-load size budget: for each route, the entry (index.html's script) with its static
// imports, plus the chunks the route's loaders import (the console frame, the page) with
// theirs, and their style sheets, summed as the gzip files the server sends (written by
// scripts/compress.mjs). Reads dist/.vite/manifest.json.
//
// Which modules a route loads is not listed here by hand (a list drifted once: it kept counting
// a placeholder page after the dashboard replaced it). It is read from the source the router is
// built from: src/router.tsx (the route objects and their loaders, e.g. the console frame's
// `lazyPage(() => Promise.all([import(...), ...]))`) and src/routes.tsx (manageRoutes'
// `page: () => import(...)`, publicPages), with the TypeScript parser. Chunks a page fetches
// later (React.lazy parts such as the charts, idle prefetches) are not part of its first load.
//
// `node scripts/budget.mjs` prints the table and fails over budget; e2e/tests/speed.test.mjs
// runs the same check.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const WEB = join(import.meta.dirname, '..');
export const DIST = join(WEB, 'dist');
const SRC = join(WEB, 'src');

/** Budgets in gzipped bytes; the modules each route loads are derived from the router's source. */
const LIMITS = [
  { route: '/login', limit: 250 * 1024 },
  // Back at 400 KiB (388.7 measured) since the privacy modal and its sanitiser are fetched only for
  // a user who must accept the policy (layouts/ManageLayout.tsx); it had reached 400.3 with the
  // query-key factories of issue 28.
  { route: '/manage/home', limit: 400 * 1024 },
];

// ---- the router's source: route pattern -> the modules its loaders import ----

const parse = (file) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);

/** Top-level `const name = ...` initializers of a file. */
function constsOf(sf) {
  const out = new Map();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) out.set(d.name.text, d.initializer);
  }
  return out;
}

const unwrap = (n) => {
  while (n && (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n))) n = n.expression;
  return n;
};

const propOf = (obj, name) => {
  obj = unwrap(obj);
  if (!obj || !ts.isObjectLiteralExpression(obj)) return undefined;
  const p = obj.properties.find((p) => ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name);
  return p?.initializer;
};

/** The route table as the router builds it: [{ pattern, modules: [file, specifier] }]. */
export function routeTable() {
  const routerFile = join(SRC, 'router.tsx');
  const routesFile = join(SRC, 'routes.tsx');
  const router = parse(routerFile);
  const routes = parse(routesFile);
  // the route shape and MANAGE_BASE (routes.tsx re-exports them)
  const shapeFile = join(SRC, 'utils', 'routeDef.ts');
  const scopes = [
    { file: routerFile, consts: constsOf(router) },
    { file: routesFile, consts: constsOf(routes) },
    { file: shapeFile, consts: constsOf(parse(shapeFile)) },
  ];
  /** A constant by name, in the file that uses it first. */
  const lookup = (name, from = routerFile) => {
    for (const s of [...scopes].sort((a, b) => (b.file === from) - (a.file === from))) if (s.consts.has(name)) return { file: s.file, node: s.consts.get(name) };
    throw new Error(`budget.mjs: cannot find \`${name}\` in src/router.tsx, src/routes.tsx or src/utils/routeDef.ts`);
  };

  /** A string the router computes from constants: 'x', MANAGE_BASE, TOP_PATHS.login. */
  const str = (n) => {
    n = unwrap(n);
    if (ts.isStringLiteralLike(n)) return n.text;
    if (ts.isIdentifier(n)) return str(lookup(n.text).node);
    if (ts.isPropertyAccessExpression(n)) return str(propOf(lookup(n.expression.getText()).node, n.name.text));
    throw new Error(`budget.mjs: cannot read a path from \`${n.getText()}\``);
  };

  /** The `import('...')` calls a loader makes, following names (ConsoleFrame, publicPages.login, notAvailable). */
  const modules = (n, file, out = []) => {
    n = unwrap(n);
    if (!n) return out;
    if (ts.isIdentifier(n)) {
      const d = lookup(n.text, file);
      return modules(d.node, d.file, out);
    }
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression)) {
      const d = lookup(n.expression.text, file);
      return modules(propOf(d.node, n.name.text), d.file, out);
    }
    const visit = (c) => {
      if (ts.isCallExpression(c) && c.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const spec = c.arguments[0];
        if (!spec || !ts.isStringLiteralLike(spec)) throw new Error(`budget.mjs: a dynamic import of a computed name in ${relative(WEB, file)}`);
        out.push([file, spec.text]);
        return;
      }
      // a loader passed by name inside a call, e.g. preload(pageOf(publicPages.login))
      if (ts.isCallExpression(c)) {
        for (const a of c.arguments) {
          const u = unwrap(a);
          if (ts.isIdentifier(u) || ts.isPropertyAccessExpression(u)) modules(u, file, out);
          else visit(u);
        }
        ts.forEachChild(c.expression, visit);
        return;
      }
      ts.forEachChild(c, visit);
    };
    visit(n);
    return out;
  };

  const join2 = (parent, child) => (!child ? parent : child.startsWith('/') ? child : `${parent.replace(/\/+$/, '')}/${child}`);
  const table = [];

  /** manageRoutes (RouteDef[]): each def's page, under its ancestors' pages. */
  const defs = (arr, parent, inherited) => {
    for (const el of unwrap(arr).elements) {
      const pattern = join2(parent, str(propOf(el, 'path')));
      const page = propOf(el, 'page');
      const mods = [...inherited, ...(page ? modules(page, routesFile) : [])];
      if (page) table.push({ pattern, modules: mods });
      const children = propOf(el, 'children');
      if (children) defs(children, pattern, mods);
    }
  };

  /** routeObjects: object routes, publicRoute(path, page) calls, ...toRouteObjects(defs, base). */
  const objects = (arr, parent, inherited) => {
    for (let el of unwrap(arr).elements) {
      if (ts.isSpreadElement(el)) {
        const call = unwrap(el.expression);
        if (!ts.isCallExpression(call) || call.expression.getText() !== 'toRouteObjects') throw new Error(`budget.mjs: unknown route spread \`${el.getText()}\``);
        defs(lookup(call.arguments[0].getText()).node, join2(parent, str(call.arguments[1])), inherited);
        continue;
      }
      el = unwrap(el);
      if (ts.isCallExpression(el) && el.expression.getText() === 'publicRoute') {
        table.push({ pattern: join2(parent, str(el.arguments[0])), modules: [...inherited, ...modules(el.arguments[1], routerFile)] });
        continue;
      }
      if (!ts.isObjectLiteralExpression(el)) throw new Error(`budget.mjs: unknown route \`${el.getText().slice(0, 80)}\``);
      const path = propOf(el, 'path');
      const pattern = path ? join2(parent, str(path)) : parent;
      const loader = propOf(el, 'loader');
      const mods = [...inherited, ...(loader ? modules(loader, routerFile) : [])];
      if (loader) table.push({ pattern, modules: mods });
      const children = propOf(el, 'children');
      if (children) objects(children, pattern, mods);
    }
  };
  objects(lookup('routeObjects').node, '', []);
  return table;
}

/** The manifest key of a module a source file imports dynamically. */
function manifestKey(manifest, file, spec) {
  let path;
  if (spec.startsWith('.')) {
    const base = resolve(dirname(file), spec);
    path = ['', '.tsx', '.ts', '.jsx', '.js', '/index.tsx', '/index.ts', '/index.jsx', '/index.js'].map((e) => base + e).find((p) => existsSync(p) && statSync(p).isFile());
  } else {
    path = createRequire(file).resolve(spec);
  }
  if (!path) throw new Error(`budget.mjs: cannot resolve ${spec} from ${relative(WEB, file)}`);
  const key = relative(WEB, path).split('\\').join('/');
  if (manifest[key]) return key;
  // A module that the bundler put in a shared chunk has no key of its own: the chunk named
  // after it among the dynamically imported ones (name: the file's stem, or its folder's for index).
  const stem = basename(path, extname(path));
  const name = stem === 'index' ? basename(dirname(path)) : stem;
  const imported = new Set(Object.values(manifest).flatMap((c) => c.dynamicImports ?? []));
  const found = [...imported].filter((k) => manifest[k] && !manifest[k].src && manifest[k].name === name);
  if (found.length !== 1) throw new Error(`budget.mjs: ${key} (import('${spec}') in ${relative(WEB, file)}) is not in the build manifest`);
  return found[0];
}

/** The manifest keys of the modules a route's loaders import (its frame and page). */
export function routeModules(route, dist = DIST) {
  const manifest = readManifest(dist);
  const r = routeTable().find((x) => x.pattern === route);
  if (!r) throw new Error(`budget.mjs: no route ${route} in src/router.tsx / src/routes.tsx`);
  return [...new Set(r.modules.map(([file, spec]) => manifestKey(manifest, file, spec)))];
}

// ---- sizes ----

const readManifest = (dist) => JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

/** The budgets, with the modules each route's loaders import (from the source, as built in dist). */
export const BUDGETS = LIMITS.map((b) => ({
  ...b,
  get lazy() {
    return routeModules(b.route);
  },
}));

function gzSize(dist, file) {
  const gz = join(dist, `${file}.gz`);
  // compress.mjs skips files that would not shrink: those go out as they are.
  return existsSync(gz) ? statSync(gz).size : statSync(join(dist, file)).size;
}

/**
 * The files a route loads before it shows, with their gzipped sizes: the entry and the given
 * lazily imported modules, each with its static imports (transitively) and style sheets.
 */
export function routeFiles(lazy, dist = DIST) {
  const manifest = readManifest(dist);
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('manifest has no entry');
  const seen = new Set();
  const files = new Map();
  const walk = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
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
  return LIMITS.map((b) => {
    const lazy = routeModules(b.route, dist);
    const files = routeFiles(lazy, dist);
    const total = [...files.values()].reduce((a, n) => a + n, 0);
    return { ...b, lazy, total, files };
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
