import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import i18n, { loadLocale } from '../i18n';
import SelectionButton from './SelectionButton';

function show(count: number, onClick = vi.fn()) {
  render(
    <App>
      <SelectionButton count={count} onClick={onClick} data-testid="act">
        Act
      </SelectionButton>
    </App>,
  );
  return onClick;
}

afterEach(async () => {
  await i18n.changeLanguage('en-US');
});

describe('a button that needs a selection', () => {
  it('with nothing selected: stays clickable and prompts "Select an item, group or params first" instead of acting', async () => {
    const onClick = show(0);
    const button = screen.getByTestId('act') as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByText('Select an item, group or params first')).toBeTruthy());
    expect(onClick).not.toHaveBeenCalled();
  });

  it('prompts in zh-CN too', async () => {
    await loadLocale('zh-CN');
    await i18n.changeLanguage('zh-CN');
    show(0);
    fireEvent.click(screen.getByTestId('act'));
    await waitFor(() => expect(screen.getByText('请先选择条目、分组或参数')).toBeTruthy());
  });

  it('with a selection: acts', () => {
    const onClick = show(2);
    fireEvent.click(screen.getByTestId('act'));
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
