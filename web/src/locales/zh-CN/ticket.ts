/** 工单：侧边栏文字；页面文字在 locales/domains/ticket.ts 和 richtext.ts。 */
const ticket: Record<string, string> = {
  'menu.issue': '工单',
  'menu.issue.list': '工单列表',
  'menu.issue.detail': '工单详情',
  'ticket.fromAlarm': '创建工单',
};
export default ticket;
