/** OCPP message names in plain words (registered by the trigger-message forms and the protocol log). */
import enUS from '../en-US/protocol';
import zhCN from '../zh-CN/protocol';
import type { DomainTexts } from './index';

export const protocolTexts: DomainTexts = { 'en-US': enUS, 'zh-CN': zhCN };
