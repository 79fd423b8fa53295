/** The remote access screens' texts, loaded with the device page's remote parts (locales/domains/index.ts), not with the entry. */
import enUS from '../en-US/remote';
import zhCN from '../zh-CN/remote';
import type { DomainTexts } from './index';

export const remoteTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
