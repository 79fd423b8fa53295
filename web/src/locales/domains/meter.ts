/** The device page's meter texts (locations of values), loaded with the device page (registered by pages/device/sections.tsx and Charts.tsx). */
import enUS from '../en-US/meter';
import zhCN from '../zh-CN/meter';
import type { DomainTexts } from './index';

export const meterTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
