/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Render tests (`*.test.tsx`) that replace a module with vi.mock: they run isolated (below).
function mockingRenderTests(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return mockingRenderTests(path);
    return e.name.endsWith('.test.tsx') && readFileSync(path, 'utf8').includes('vi.mock(') ? [path] : [];
  });
}
const mocking = mockingRenderTests();

const apiDir = fileURLToPath(new URL('../api', import.meta.url));
// the Go server; override with CHARGEOPS_BACKEND=http://host:port
const backend = process.env.CHARGEOPS_BACKEND ?? 'http://127.0.0.1:8080';
const proxy = {
  '/api': { target: backend, changeOrigin: false },
  '/ocpp': { target: backend, ws: true },
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The permission catalogue (../api/permissions.json) is shared with the Go server.
    alias: { '@api': apiDir },
  },
  server: {
    fs: { allow: ['..'] },
    proxy,
  },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // dist/.vite/manifest.json: the chunk graph, read by scripts/budget.mjs (the size budget).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // rc-field-form declares no "sideEffects", so antd's Input (through its form context)
        // would carry the whole form library and its validator into the sign-in page. Its
        // modules only define classes and functions: unused ones may go.
        moduleSideEffects: [{ test: /[\\/]node_modules[\\/](rc-field-form|@rc-component[\\/]async-validator)[\\/]/, sideEffects: false }],
      },
    },
  },
  test: {
    setupFiles: ['./vitest.setup.ts'],
    // Routing tests render the whole console; a loaded 2-core CI machine needs more than 5 s.
    testTimeout: 20_000,
    // Worker threads start faster than the default child processes (the node project ran in half
    // the time). Isolation stays on: time.test.ts sets the time zone and i18n.test.ts expects
    // zh-CN not yet loaded, module state another file in the same worker would otherwise see.
    pool: 'threads',
    // Projects told apart by the file name (web/README.md#tests):
    // - `*.test.ts`: pure functions on the node environment, no DOM (a jsdom per file is most of
    //   the run's cost). Using `document`, `window` or storage there fails with "... is not
    //   defined"; a .ts file that does need the DOM says so in its first line:
    //   `// @vitest-environment jsdom`.
    // - `*.test.tsx`: anything that renders, on jsdom;
    projects: [
      { extends: true, test: { name: 'node', environment: 'node', include: ['src/**/*.test.ts'] } },
      // - render tests share their worker's jsdom and modules (isolate: false: antd and React are
      //   imported once, not once per file; the set-up empties the DOM and storage after each
      //   test), except files that vi.mock a module: a mock would reach the files after them.
      { extends: true, test: { name: 'jsdom', environment: 'jsdom', include: ['src/**/*.test.tsx'], exclude: mocking, isolate: false } },
      { extends: true, test: { name: 'jsdom-mocks', environment: 'jsdom', include: mocking } },
    ],
  },
});
