import common from './common';
import menu from './menu';
import pages from './pages';

const messages: Record<string, string> = { ...common, ...menu, ...pages };
export default messages;
