/** The application screens' texts, loaded with those screens (locales/domains/index.ts), not with the entry. */
import enUS from '../en-US/application';
import zhCN from '../zh-CN/application';
import type { DomainTexts } from './index';

export const applicationTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
