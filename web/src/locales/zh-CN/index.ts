import common from './common';
import menu from './menu';
import pages from './pages';
import org from './org';

const messages: Record<string, string> = { ...common, ...menu, ...pages, ...org };
export default messages;
