import common from './common';
import menu from './menu';
import pages from './pages';
import org from './org';
import fleet from './fleet';
import names from './names';
import home from './home';
import stats from './stats';
import message from './message';
import ticket from './ticket';

const messages: Record<string, string> = { ...common, ...menu, ...pages, ...org, ...fleet, ...names, ...home, ...stats, ...message, ...ticket };
export default messages;
