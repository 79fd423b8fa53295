import { describe, expect, it } from 'vitest';
import { brokenRule, checkValue, duplicateControlCodes, parseEnum, rangeError, rulesByKey, valueRule } from './dataRange';
import { isValidDate, isValidSN, isValidUserName } from './validators';

describe('data ranges (docs/decisions.md#levels, same cases as the server)', () => {
  const cases: [string, string, boolean][] = [
    ['int', '0~100', true],
    ['int', '100~0', false],
    ['int', '5~5', false],
    ['int', '1.5~3', false],
    ['int', '0-100', false],
    ['int', '-10~10', true],
    ['int', '', true],
    ['float', '0~1.5|2', true],
    ['float', '0~1.5', true],
    ['float', '0~1.5|100', false],
    ['float', '0~1.5|99', true],
    ['float', '2~1|2', false],
    ['float', 'a~b|1', false],
    ['float', '0~1|x', false],
    ['string', '0~32', true],
    ['string', '-1~5', false],
    ['string', '3~2', false],
    ['enum', 'On|1|number\nOff|0|number', true],
    ['enum', 'Yes|true|boolean', true],
    ['enum', 'A|a', true],
    ['enum', 'A||a', false],
    ['enum', 'A|x|number', false],
    ['enum', 'A|a|date', false],
    ['enum', 'A|a\nB|a', false],
    ['enum', '', false],
    ['enum', 'A|maybe|boolean', false],
    ['bool', '', true],
    ['bool', '0~1', false],
    ['date', '', false],
  ];
  it.each(cases)('%s %j → %s', (type, text, ok) => {
    expect(rangeError(type, text) === null).toBe(ok);
  });

  it('names the broken rule', () => {
    expect(rangeError('float', '2~1')).toBe('range.error.float');
    expect(rangeError('enum', 'x')).toBe('range.error.enum');
  });

  it('parses enumeration lines with the default type string', () => {
    expect(parseEnum(' On | 1 | number \n\nOff|0|number\nName|n')).toEqual([
      { display: 'On', value: '1', type: 'number' },
      { display: 'Off', value: '0', type: 'number' },
      { display: 'Name', value: 'n', type: 'string' },
    ]);
    expect(parseEnum('A|b|c|d')).toBeNull();
  });

  it('control type codes are unique within a model (editing an item keeps its own code)', () => {
    const items = [
      { id: 1, controlTypeCode: 1 },
      { id: 2, controlTypeCode: 5 },
    ];
    expect(duplicateControlCodes(items, { controlTypeCode: 5 })).toBe(true);
    expect(duplicateControlCodes(items, { id: 2, controlTypeCode: 5 })).toBe(false);
    expect(duplicateControlCodes(items, { id: 1, controlTypeCode: 5 })).toBe(true);
    expect(duplicateControlCodes(items, { controlTypeCode: 7 })).toBe(false);
  });
});

describe('field rules', () => {
  it('SN format', () => {
    expect(isValidSN('CP-000001')).toBe(true);
    expect(isValidSN('ab_1')).toBe(true);
    expect(isValidSN('-abc1')).toBe(false);
    expect(isValidSN('abc')).toBe(false);
    expect(isValidSN('a b c d')).toBe(false);
    expect(isValidSN('x'.repeat(49))).toBe(false);
  });
  it('user name: letters, digits, underscore, 6-32', () => {
    expect(isValidUserName('admin_1')).toBe(true);
    expect(isValidUserName('short')).toBe(false);
    expect(isValidUserName('has-dash')).toBe(false);
    expect(isValidUserName('a'.repeat(33))).toBe(false);
  });
  it('dates are real yyyy-mm-dd days', () => {
    expect(isValidDate('2026-02-28')).toBe(true);
    expect(isValidDate('2026-02-30')).toBe(false);
    expect(isValidDate('26-1-1')).toBe(false);
    expect(isValidDate('')).toBe(true);
  });
});

describe('values against a data type and range (same as datarange.CheckValue)', () => {
  it.each([
    ['int', '10~3600', '60', true],
    ['int', '10~3600', 'abc', false],
    ['int', '10~3600', '9', false],
    ['int', '10~3600', '3601', false],
    ['int', '10~3600', '12.5', false],
    ['int', '', '100000000', true],
    ['int', '', '-1', false],
    ['float', '0~1.5|2', '1.25', true],
    ['float', '0~1.5|2', '1.6', false],
    ['float', '0~1.5|2', '', false],
    ['string', '0~4', 'abcd', true],
    ['string', '0~4', 'abcde', false],
    ['string', '1~2', '中文', true],
    ['enum', 'On|1|number\nOff|0|number', '1', true],
    ['enum', 'On|1|number\nOff|0|number', 'On', false],
    ['bool', '', 'true', true],
    ['bool', '', 'yes', false],
    ['', '', '1', false],
  ])('%s %j: %j → %s', (type, range, value, ok) => {
    expect(checkValue(type, range, value)).toBe(ok);
  });

  it('states the rule with the range (or the default range)', () => {
    expect(valueRule('int', '10~3600')).toEqual({ key: 'config.rule.int', values: { min: 10, max: 3600 } });
    expect(valueRule('float', '')).toEqual({ key: 'config.rule.float', values: { min: 0, max: 10000000 } });
    expect(valueRule('enum', 'On|1|number\nOff|0|number')).toEqual({ key: 'config.rule.enum', values: { values: '1, 0' } });
  });

  it('checks a key against every model item listing it, case-insensitively', () => {
    const rules = rulesByKey([
      { protocolKey: 'HeartbeatInterval', dataType: 'int', dataRange: '10~3600' },
      { protocolKey: 'heartbeatinterval', dataType: 'int', dataRange: '30~600' },
      { protocolKey: '', dataType: 'int', dataRange: '0~1' },
    ]);
    expect(brokenRule(rules, 'HEARTBEATINTERVAL', '60')).toBeNull();
    expect(brokenRule(rules, 'HeartbeatInterval', '20')).toEqual({ key: 'config.rule.int', values: { min: 30, max: 600 } });
    expect(brokenRule(rules, 'HeartbeatInterval', 'abc')?.values).toEqual({ min: 10, max: 3600 });
    expect(brokenRule(rules, 'UnlistedKey', 'anything')).toBeNull();
  });
});
