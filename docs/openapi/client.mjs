#!/usr/bin/env node
// A chargeops OpenAPI v1 client in plain Node.js (18 or later, no packages), written from
// docs/openapi.md. Usage:
//
//   node client.mjs <base URL> <appId> <appSecret>              lists the devices
//   node client.mjs <base URL> <appId> <appSecret> <SN>         ... and soft-reboots that one
//
// Import signedFetch from it to make your own calls.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';

// RFC 3986: everything but A-Z a-z 0-9 - _ . ~ is percent-encoded (a space is %20).
const encode = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/** The canonical query: each pair encoded, sorted by key then value, joined by "&". */
export function canonicalQuery(searchParams) {
  return [...searchParams]
    .map(([k, v]) => [encode(k), encode(v)])
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** The signature headers of one request. */
export function signHeaders({ method, url, body = '', appId, secret, timestamp, nonce }) {
  const u = new URL(url);
  const ts = String(timestamp ?? Math.floor(Date.now() / 1000));
  const n = nonce ?? randomBytes(16).toString('hex');
  const text = [
    'CHARGEOPS-HMAC-SHA256',
    method.toUpperCase(),
    u.pathname,
    canonicalQuery(u.searchParams),
    createHash('sha256').update(body).digest('hex'),
    appId,
    ts,
    n,
  ].join('\n');
  return {
    'X-App-Id': appId,
    'X-Timestamp': ts,
    'X-Nonce': n,
    'X-Signature': createHmac('sha256', secret).update(text).digest('hex'),
  };
}

/** Calls the OpenAPI: path with its query, an optional JSON body; answers the envelope. The
 * query is sent as it is signed, in canonical form (the server refuses other encodings and a
 * key sent twice: docs/openapi.md, "The query"). */
export async function signedFetch(base, appId, secret, method, path, body) {
  const u = new URL(path, base);
  const query = canonicalQuery(u.searchParams);
  u.search = query ? `?${query}` : '';
  const url = u.toString();
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers = { ...signHeaders({ method, url, body: text, appId, secret }), 'Content-Type': 'application/json' };
  const res = await fetch(url, { method, headers, body: text || undefined });
  const envelope = await res.json();
  return { status: res.status, ...envelope };
}

async function main([base, appId, secret, sn]) {
  if (!secret) {
    console.error('usage: node client.mjs <base URL> <appId> <appSecret> [SN to reboot]');
    process.exit(2);
  }
  const call = (method, path, body) => signedFetch(base, appId, secret, method, path, body);
  const devices = await call('GET', '/openapi/v1/devices?pageSize=100');
  if (devices.code !== 0) throw new Error(`devices: ${devices.code} ${devices.message}`);
  for (const d of devices.data.list) console.log(`device ${d.id} ${d.sn} status ${d.status}`);
  if (!sn) return;
  const device = devices.data.list.find((d) => d.sn === sn);
  if (!device) throw new Error(`no device ${sn}`);
  const sent = await call('POST', '/openapi/v1/commands', { deviceIds: [device.id], controlType: 1 });
  if (sent.code !== 0) throw new Error(`reboot: ${sent.code} ${sent.message}`);
  const id = sent.data.commands[0].id;
  console.log(`command ${id} sent`);
  for (let i = 0; i < 60; i++) {
    const c = await call('GET', `/openapi/v1/commands/detail?id=${id}`);
    if (c.code !== 0) throw new Error(`command: ${c.code} ${c.message}`);
    if (c.data.result !== 1) {
      console.log(`command ${id} result ${c.data.result}${c.data.result === 2 ? ' (success)' : ''}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`command ${id} still waiting`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
