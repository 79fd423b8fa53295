import { describe, expect, it } from 'vitest';
import { encryptorFor, sha256Hex } from './crypto';

async function keyPair() {
  const kp = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', kp.publicKey));
  const b64 = btoa(String.fromCharCode(...spki));
  const pem = `-----BEGIN PUBLIC KEY-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return { pem, privateKey: kp.privateKey };
}

async function decrypt(key: CryptoKey, b64: string) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, key, bytes));
}

describe('password transport (docs/api.md)', () => {
  it('encrypts userName plain, checked passwords as nonce:sha256hex, set passwords as nonce:password', async () => {
    const { pem, privateKey } = await keyPair();
    const enc = await encryptorFor({ keyId: 'k1', publicKey: pem, nonce: 'N0NCE' });
    expect(enc.keyId).toBe('k1');
    expect(await decrypt(privateKey, await enc.plain('admin'))).toBe('admin');
    expect(await decrypt(privateKey, await enc.checked('Secret#123'))).toBe(`N0NCE:${await sha256Hex('Secret#123')}`);
    expect(await decrypt(privateKey, await enc.set('Secret#123'))).toBe('N0NCE:Secret#123');
  });

  it('sha256Hex is lowercase hex', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
