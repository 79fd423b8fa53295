/** The signed-in user's own profile (the `my` page). */
import { get, post } from './request';
import { encryptorFor } from './crypto';
import { getLoginKey } from './auth';
import type { OwnerDetail } from './typings';

/** Query keys beside their service: roots to refresh, factories for one query. */
export const ownerKeys = { detail: ['owner'] as const };

export const getOwner = () => get<OwnerDetail>('/api/auth/sys/user/owner/detail');
export const updateOwner = (body: { nickName: string; contact: string; avatar: string }) =>
  post<null>('/api/auth/sys/user/owner/update', body);

export async function changePassword(oldPassword: string, newPassword: string) {
  const enc = await encryptorFor(await getLoginKey());
  return post<null>('/api/auth/sys/user/owner/password', {
    keyId: enc.keyId,
    oldPassword: await enc.checked(oldPassword),
    newPassword: await enc.set(newPassword),
  });
}

export async function changeEmail(password: string, email: string) {
  const enc = await encryptorFor(await getLoginKey());
  return post<null>('/api/auth/sys/user/owner/email', {
    keyId: enc.keyId,
    password: await enc.checked(password),
    email,
  });
}
