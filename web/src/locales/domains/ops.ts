/** The device page's charging operations and reservations, loaded with them (locales/domains/index.ts). */
import enUS from '../en-US/ops';
import zhCN from '../zh-CN/ops';
import type { DomainTexts } from './index';

export const opsTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
