/** Tickets ("issues" in the spec): the sidebar texts; the screens' texts are in locales/domains/ticket.ts and richtext.ts. */
const ticket: Record<string, string> = {
  'menu.issue': 'Tickets',
  'menu.issue.list': 'Ticket list',
  'menu.issue.detail': 'Ticket detail',
  'ticket.fromAlarm': 'Create ticket',
};
export default ticket;
