import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const openapiPath = join(__dirname, '../../../api/openapi.json');

describe('API contract', () => {
  it.runIf(existsSync(openapiPath))('every path the services call is in api/openapi.json with that method', () => {
    const doc = JSON.parse(readFileSync(openapiPath, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const missing: string[] = [];
    let checked = 0;
    for (const f of readdirSync(__dirname).filter((n) => n.endsWith('.ts') && !n.includes('.test.') && !n.endsWith('.d.ts'))) {
      const text = readFileSync(join(__dirname, f), 'utf8');
      for (const m of text.matchAll(/\b(get|post)<[^>]*>\(\s*'(\/api\/[^']+)'/g)) {
        const [, method, path] = m;
        checked++;
        if (!doc.paths[path]?.[method]) missing.push(`${f}: ${method.toUpperCase()} ${path}`);
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });
});
