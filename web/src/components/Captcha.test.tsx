import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n, { loadLocale } from '../i18n';
import Captcha from './Captcha';

const getCaptcha = vi.fn();
vi.mock('../services/auth', () => ({ getCaptcha: () => getCaptcha() }));

describe('the captcha (issue 30 item 18)', () => {
  it('has a refresh button beside the image that fetches another image and id, named in the UI language', async () => {
    await loadLocale('zh-CN');
    await i18n.changeLanguage('zh-CN');
    let n = 0;
    getCaptcha.mockImplementation(async () => {
      n++;
      return { captchaId: `id-${n}`, image: `data:image/png;base64,${n}` };
    });
    const ids: string[] = [];
    render(<Captcha onCaptchaId={(id) => ids.push(id)} testId="cap" />);
    await waitFor(() => expect(screen.getByTestId('captcha-image').getAttribute('src')).toBe('data:image/png;base64,1'));
    const button = screen.getByTestId('captcha-new');
    expect(button.getAttribute('aria-label')).toBe('换一张');
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('captcha-image').getAttribute('src')).toBe('data:image/png;base64,2'));
    expect(ids).toEqual(['id-1', 'id-2']);
    await i18n.changeLanguage('en-US');
  });
});
