import { describe, expect, it } from 'vitest';
import enUS from '../../../locales/en-US';
import zhCN from '../../../locales/zh-CN';
import { PARAM_FILE_MAX_BYTES, paramFileProblem } from './paramFile';

describe('device parameter import: JSON only, at most 5 MB', () => {
  it('a .json file up to 5 MB may be sent, whatever the case of its extension', () => {
    expect(paramFileProblem({ name: 'params.json', size: 10 })).toBeNull();
    expect(paramFileProblem({ name: 'PARAMS.JSON', size: PARAM_FILE_MAX_BYTES })).toBeNull();
  });
  it('any other file is the format error', () => {
    for (const name of ['params.xlsx', 'params.json.txt', 'params', 'json']) {
      expect(paramFileProblem({ name, size: 10 })).toBe('config.importFormat');
    }
  });
  it('over 5 MB is refused before it is sent', () => {
    expect(paramFileProblem({ name: 'params.json', size: PARAM_FILE_MAX_BYTES + 1 })).toBe('config.importTooLarge');
  });
  it('the messages exist in both languages, the spec\'s wording in English', () => {
    const en = enUS as Record<string, string>;
    const zh = zhCN as Record<string, string>;
    expect(en['config.importFormat']).toBe('Upload file format error, only JSON');
    expect(zh['config.importFormat']).toBe('上传文件格式错误，仅支持 JSON');
    for (const k of ['config.import', 'config.importTooLarge']) {
      expect(en[k]).toBeTruthy();
      expect(zh[k]).toBeTruthy();
    }
  });
});
