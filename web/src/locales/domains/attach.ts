/** The attach screens' texts, loaded with those screens (locales/domains/index.ts), not with the entry. */
import enUS from '../en-US/attach';
import zhCN from '../zh-CN/attach';
import type { DomainTexts } from './index';

export const attachTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
