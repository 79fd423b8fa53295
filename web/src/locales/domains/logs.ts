/** The logs screens' texts, loaded with those screens (locales/domains/index.ts), not with the entry. */
import enUS from '../en-US/logs';
import zhCN from '../zh-CN/logs';
import type { DomainTexts } from './index';

export const logsTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
