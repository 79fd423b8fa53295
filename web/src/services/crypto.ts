/** Password transport of docs/api.md: RSA-OAEP/SHA-256 with the server's SPKI key, base64. */
import type { LoginKey } from './typings';

function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s);
}

function subtle(): SubtleCrypto {
  if (!globalThis.crypto?.subtle) {
    // Web Crypto exists only in secure contexts (https or localhost).
    throw new Error('Web Crypto is unavailable: open the console over https or localhost.');
  }
  return globalThis.crypto.subtle;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await subtle().digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function importPublicKey(pem: string): Promise<CryptoKey> {
  return subtle().importKey('spki', pemToDer(pem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
}

export async function rsaEncrypt(key: CryptoKey, text: string): Promise<string> {
  const enc = await subtle().encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(text));
  return toBase64(enc);
}

/** An encryptor bound to one login key: every field of one request uses the same nonce. */
export async function encryptorFor(k: LoginKey) {
  const key = await importPublicKey(k.publicKey);
  return {
    keyId: k.keyId,
    /** Plain value (user name). */
    plain: (v: string) => rsaEncrypt(key, v),
    /** A password that is checked: nonce + ":" + sha256hex(password). */
    checked: async (pw: string) => rsaEncrypt(key, `${k.nonce}:${await sha256Hex(pw)}`),
    /** A password that is set: nonce + ":" + password. */
    set: (pw: string) => rsaEncrypt(key, `${k.nonce}:${pw}`),
  };
}
