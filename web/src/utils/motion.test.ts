import { describe, expect, it } from 'vitest';
import { chartMotion } from './motion';
import { themeOf } from '../theme';

describe('reduced motion', () => {
  it('turns chart animation off only when motion is reduced', () => {
    const option = { series: [] };
    expect(chartMotion(option, false)).toBe(option);
    expect(chartMotion(option, true)).toEqual({ series: [], animation: false });
  });

  it('turns antd motion off only when motion is reduced', () => {
    expect(themeOf(true).token?.motion).toBe(false);
    expect(themeOf(false).token?.motion).toBe(true);
    expect(themeOf(true).token?.colorPrimary).toBe(themeOf(false).token?.colorPrimary);
  });
});
