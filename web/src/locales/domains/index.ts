/**
 * Texts that load with their pages, not with the console's entry (route budgets; docs/architecture.md,
 * "Console texts"): a page module calls `registerTexts(attachTexts)` at its top, so the texts are
 * in i18next before the page renders. Each domain holds both languages.
 */
import i18n from 'i18next';

export interface DomainTexts {
  'en-US': Record<string, string>;
  'zh-CN': Record<string, string>;
}

/** Adds a domain's texts to both languages (again is harmless: the same values). */
export function registerTexts(d: DomainTexts): void {
  for (const [lng, texts] of Object.entries(d)) i18n.addResources(lng, 'translation', texts);
}
