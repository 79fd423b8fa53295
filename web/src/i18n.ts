/**
 * i18next set-up. Locale: stored choice wins, else the server's defaultLocale, else en-US. The
 * English texts are in the entry (the fallback); the Chinese ones load as their own chunk when
 * the console is shown in Chinese (loadLocale), so an English first load does not carry them.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from './locales/en-US';

export const LOCALES = ['en-US', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';
export const LOCALE_STORAGE_KEY = 'chargeops_locale';

export function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

export function storedLocale(): Locale | null {
  try {
    const v = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(v) ? v : null;
  } catch {
    return null;
  }
}

export function resolveLocale(stored: string | null | undefined, configDefault: string | null | undefined): Locale {
  if (isLocale(stored)) return stored;
  if (isLocale(configDefault)) return configDefault;
  return DEFAULT_LOCALE;
}

void i18n.use(initReactI18next).init({
  resources: { 'en-US': { translation: enUS } },
  lng: resolveLocale(storedLocale(), null),
  fallbackLng: DEFAULT_LOCALE,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
});

const loaded = new Set<Locale>(['en-US']);

/**
 * Loads a language's console texts (once). Texts that pages registered before (registerTexts)
 * stay: the bundle is merged under them.
 */
export async function loadLocale(l: Locale): Promise<void> {
  if (loaded.has(l)) return;
  const { default: texts } = await import('./locales/zh-CN');
  i18n.addResourceBundle(l, 'translation', texts, true, false);
  loaded.add(l);
}

/** Switches to l once its texts are loaded. */
function switchTo(l: Locale): void {
  void loadLocale(l)
    .catch(() => undefined) // a chunk that fails to load: the English fallback still shows
    .then(() => i18n.changeLanguage(l));
  document.documentElement.lang = l;
}

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** The user's explicit choice: stored, so it wins over the server default. */
export function chooseLocale(l: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, l);
  } catch {
    /* storage unavailable */
  }
  switchTo(l);
}

/** Applies the server's defaultLocale unless the user chose one. */
export function applyDefaultLocale(configDefault: string | undefined): void {
  const l = resolveLocale(storedLocale(), configDefault);
  if (l !== i18n.language) switchTo(l);
  else document.documentElement.lang = l;
}

export default i18n;
