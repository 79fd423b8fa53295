/** Sign-in, session and password calls (docs/api.md "Sign-in endpoints"). */
import { get, post } from './request';
import { encryptorFor } from './crypto';
import type { AppConfig, Captcha, LoginKey, SessionInfo } from './typings';

export const getConfig = () => get<AppConfig>('/api/unauth/config');
export const getLoginKey = () => get<LoginKey>('/api/unauth/login/key');
export const getCaptcha = () => get<Captcha>('/api/unauth/captcha');
export const getSessionInfo = () => post<SessionInfo>('/api/unauth/info', {});
export const logout = () => post<null>('/api/unauth/logout', {});
export const acceptPrivacy = (version: string) => post<null>('/api/auth/sys/user/owner/privacy', { version });

export interface LoginForm {
  userName: string;
  password: string;
  captchaId?: string;
  captcha?: string;
}

export async function login(form: LoginForm) {
  const enc = await encryptorFor(await getLoginKey());
  return post<{ tokenId: string }>('/api/unauth/login', {
    keyId: enc.keyId,
    userName: await enc.plain(form.userName),
    password: await enc.checked(form.password),
    captchaId: form.captchaId ?? '',
    captcha: form.captcha ?? '',
  });
}

export const sendResetMail = (body: { email: string; captchaId: string; captcha: string; locale?: string }) =>
  post<null>('/api/unauth/password/email', body);

export const validateResetToken = (token: string) => post<{ email: string }>('/api/unauth/password/valid', { token });

/** Query keys beside their service. */
export const authKeys = { resetToken: (token: string) => ['reset-token', token] as const };

export async function resetPassword(token: string, password: string) {
  const enc = await encryptorFor(await getLoginKey());
  return post<null>('/api/unauth/password/reset', { token, keyId: enc.keyId, password: await enc.set(password) });
}
