import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Form } from 'antd';
import '../i18n';
import FormDrawer, { FormPageActions } from './FormDrawer';

/** The texts of the buttons inside el, in document order. */
const buttons = (el: Element) => [...el.querySelectorAll('button')].map((b) => b.textContent?.replace(/\s/g, ''));

// Issue 30 item 20: Save and Cancel in one place and one order on every form — antd's own
// (its modals' footer): Cancel, then the primary Save, right-aligned at the bottom.
describe('form buttons', () => {
  it('a drawer puts Cancel then Save in its footer, not in its header', async () => {
    render(
      <FormDrawer open title="Edit" onClose={vi.fn()} onSubmit={vi.fn()} testId="x">
        <span>field</span>
      </FormDrawer>,
    );
    await waitFor(() => expect(document.querySelector('.ant-drawer-footer')).toBeTruthy());
    const footer = document.querySelector('.ant-drawer-footer')!;
    expect(buttons(footer)).toEqual(['Cancel', 'Save']);
    expect(footer.querySelector('[data-testid="x-save"]')?.className).toContain('ant-btn-primary');
    expect(document.querySelector('.ant-drawer-header')?.querySelectorAll('button').length ?? 0).toBeLessThanOrEqual(1); // the close icon only
    expect((footer.querySelector('[data-testid="form-buttons"]') as HTMLElement).style.justifyContent).toBe('flex-end');
  });

  it('a full-page form puts Cancel then Save, right-aligned', () => {
    render(
      <MemoryRouter>
        <Form>
          <FormPageActions busy={false} testId="page-save" />
        </Form>
      </MemoryRouter>,
    );
    const row = screen.getByTestId('form-buttons');
    expect(buttons(row)).toEqual(['Cancel', 'Save']);
    expect(row.style.justifyContent).toBe('flex-end');
    expect(screen.getByTestId('page-save').className).toContain('ant-btn-primary');
  });
});
