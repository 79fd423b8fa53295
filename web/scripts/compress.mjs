// Writes name.gz (gzip level 9) and name.br (brotli quality 11) next to every script and style
// sheet of the build, so the server sends them compressed without compressing per request
// (internal/httpapi/spa.go picks one by Accept-Encoding). Run after `vite build`.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const dir = join(import.meta.dirname, '..', 'dist', 'assets');
const compressible = /\.(js|mjs|css|svg|json|html)$/;

async function compress(file) {
  const data = await readFile(file);
  const [gz, br] = await Promise.all([
    gzip(data, { level: 9 }),
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
  ]);
  // A tiny file may not shrink; then the plain one is served.
  let written = 0;
  if (gz.length < data.length) await writeFile(`${file}.gz`, gz), (written += 1);
  if (br.length < data.length) await writeFile(`${file}.br`, br), (written += 1);
  return { plain: data.length, gz: gz.length, br: br.length, written };
}

const names = (await readdir(dir)).filter((n) => compressible.test(n));
let plain = 0;
let gz = 0;
let br = 0;
let files = 0;
for (const n of names) {
  const r = await compress(join(dir, n));
  plain += r.plain;
  gz += r.gz;
  br += r.br;
  files += r.written;
}
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(`compress: ${names.length} assets, ${kb(plain)} → gzip ${kb(gz)}, brotli ${kb(br)} (${files} files written)`);
