/** The device-access page's Charge-point CA tab, loaded with it (locales/domains/index.ts). */
import enUS from '../en-US/ca';
import zhCN from '../zh-CN/ca';
import type { DomainTexts } from './index';

export const caTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
