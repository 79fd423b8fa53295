import common from './common';
import menu from './menu';
import pages from './pages';
import org from './org';
import fleet from './fleet';

const messages: Record<string, string> = { ...common, ...menu, ...pages, ...org, ...fleet };
export default messages;
