import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import i18n from '../../../i18n';
import Timeline from './Timeline';
import type { TicketEntry } from '../../../services/ticket';

const entry = (over: Partial<TicketEntry>): TicketEntry =>
  ({ id: 1, kind: 'comment', field: '', from: '', to: '', body: '', userId: 0, userName: '', anonymous: '', createdAt: 1700000000000, ...over }) as TicketEntry;

// Issue 29 L6: the anonymous share page names staff by display name or as "Staff", never by a
// login name (the server sends none); the console keeps '-' for an entry without a user.
describe('<Timeline> who', () => {
  it('shows the display name, and the unnamed label for staff without one', async () => {
    await i18n.changeLanguage('en-US');
    render(<Timeline entries={[entry({ id: 1, userName: 'Li Wei' }), entry({ id: 2 })]} unnamed={i18n.t('ticket.staff')} />);
    expect(screen.getAllByTestId('ticket-entry-who').map((n) => n.textContent)).toEqual(['Li Wei', 'Staff']);
  });
  it('says Staff in Chinese too', async () => {
    await i18n.changeLanguage('zh-CN');
    render(<Timeline entries={[entry({ id: 3 })]} unnamed={i18n.t('ticket.staff')} />);
    expect(screen.getByTestId('ticket-entry-who').textContent).toBe('工作人员');
    await i18n.changeLanguage('en-US');
  });
  it("keeps '-' in the console", () => {
    render(<Timeline entries={[entry({ id: 4 })]} />);
    expect(screen.getByTestId('ticket-entry-who').textContent).toBe('-');
  });
});

// Issue 30 item 13: a 7-day share's entry said "permanent" on the share page.
describe('<Timeline> shares', () => {
  it('names the real expiry; "permanent" only for a permanent share', async () => {
    await i18n.changeLanguage('en-US');
    const { container } = render(
      <Timeline entries={[entry({ id: 5, kind: 'share', to: '1796318489786' }), entry({ id: 6, kind: 'share', to: '0' }), entry({ id: 7, kind: 'share', to: '' })]} />,
    );
    const text = container.textContent ?? '';
    expect(text).toMatch(/made an anonymous share \(until 2026-/);
    expect(text.match(/permanent/g)?.length).toBe(1);
  });
});
