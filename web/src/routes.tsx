/**
 * THE route table of the console (docs/decisions.md#route-keys), with the permission keys of docs/architecture.md#permissions taken from the
 * shared catalogue ../api/permissions.json. router.tsx turns it into react-router routes (each
 * page lazy-loaded, i.e. one chunk per page), utils/menu.ts builds the sidebar from it and
 * routeMatch.ts finds the keys of a path for the guards (the route shape is utils/routeDef.ts).
 *
 * A route's effective keys are its ancestors' keys plus its own; all of them must be held.
 */
import { DEVICE_READ_KEYS, USER_ASSIGN_KEYS } from './access';
import { MANAGE_BASE, type PageLoader, type RouteDef } from './utils/routeDef';

export { MANAGE_BASE, type PageLoader, type RouteDef };

const welcome: PageLoader = () => import('./pages/Welcome');
// add and update share one screen (and one chunk)
const siteForm: PageLoader = () => import('./pages/site/Form');
const deviceForm: PageLoader = () => import('./pages/device/Form');
const userForm: PageLoader = () => import('./pages/system/user/Form');
const appForm: PageLoader = () => import('./pages/system/application/Form');
const docPropsForm: PageLoader = () => import('./pages/docs/PropsForm');

/** Children of /manage. */
export const manageRoutes: RouteDef[] = [
  { path: 'home', name: 'menu.home', keys: ['auth_home'], icon: 'home', group: 1, home: true, page: () => import('./pages/home') },
  { path: 'welcome', name: 'menu.welcome', hideInMenu: true, noLoading: true, page: welcome },
  { path: 'noauth', name: 'menu.noauth', hideInMenu: true, noLoading: true, page: () => import('./pages/exception/NoAuth') },
  { path: 'my', name: 'menu.my', keys: ['auth_my'], hideInMenu: true, page: () => import('./pages/my') },
  {
    path: 'site',
    name: 'menu.site',
    keys: ['auth_site'],
    icon: 'site',
    redirect: '/manage/site/list',
    children: [
      { path: 'list', name: 'menu.site.list', keys: ['auth_site_list'], hideInMenu: true, page: () => import('./pages/site/List') },
      { path: 'add', name: 'menu.site.add', keys: ['auth_site_add'], hideInMenu: true, page: siteForm },
      { path: 'update/:id', name: 'menu.site.update', keys: ['auth_site_edit'], hideInMenu: true, page: siteForm },
      { path: 'detail/:id', name: 'menu.site.detail', keys: ['auth_site_detail'], hideInMenu: true, page: () => import('./pages/site/Detail') },
    ],
  },
  {
    path: 'device',
    name: 'menu.device',
    keys: ['auth_device'],
    icon: 'device',
    redirect: '/manage/device/list',
    children: [
      { path: 'list', name: 'menu.device.list', keys: ['auth_device_list'], hideInMenu: true, page: () => import('./pages/device/List') },
      { path: 'add/:SN?', name: 'menu.device.add', keys: ['auth_device_add'], hideInMenu: true, page: deviceForm },
      { path: 'update/:id', name: 'menu.device.update', keys: ['auth_device_edit'], hideInMenu: true, page: deviceForm },
      {
        path: ':listtype?/detail/:id/:type?',
        name: 'menu.device.detail',
        // the device page, read: detail or information (the server's device reads take either)
        keys: [DEVICE_READ_KEYS],
        hideInMenu: true,
        page: () => import('./pages/device/Detail'),
      },
    ],
  },
  {
    path: 'session',
    name: 'menu.session',
    keys: ['auth_session'],
    icon: 'session',
    redirect: '/manage/session/list',
    children: [{ path: 'list', name: 'menu.session.list', keys: ['auth_session_list'], hideInMenu: true, page: () => import('./pages/session/List') }],
  },
  {
    path: 'token',
    name: 'menu.token',
    keys: ['auth_token'],
    icon: 'token',
    redirect: '/manage/token/list',
    children: [{ path: 'list', name: 'menu.token.list', keys: ['auth_token_list'], hideInMenu: true, page: () => import('./pages/token') }],
  },
  {
    path: 'issue',
    name: 'menu.issue',
    keys: ['auth_issue'],
    icon: 'issue',
    redirect: '/manage/issue/list',
    children: [
      { path: 'list', name: 'menu.issue.list', keys: ['auth_issue_list'], hideInMenu: true, page: () => import('./pages/issue/List') },
      { path: 'detail/:id', name: 'menu.issue.detail', keys: ['auth_issue_list'], hideInMenu: true, page: () => import('./pages/issue/Detail') },
    ],
  },
  {
    path: 'attach',
    name: 'menu.attach',
    keys: ['auth_attach'],
    icon: 'attach',
    redirect: '/manage/attach/list',
    children: [{ path: 'list', name: 'menu.attach.list', keys: ['auth_attach_tree'], hideInMenu: true, page: () => import('./pages/attach/List') }],
  },
  {
    path: 'docs',
    name: 'menu.docs',
    keys: ['auth_docs'],
    hideInMenu: true,
    redirect: '/manage/docs/home',
    children: [
      { path: 'home', name: 'menu.docs.home', keys: ['auth_docs_home_list_all'], page: () => import('./pages/docs/Home') },
      { path: 'search', name: 'menu.docs.search', keys: ['auth_docs_search'], page: () => import('./pages/docs/Search') },
      { path: 'detail/:id?', name: 'menu.docs.detail', keys: ['auth_docs_detail'], page: () => import('./pages/docs/Detail') },
      { path: 'detail/type/:type?', name: 'menu.docs.detail', keys: ['auth_docs_detail'], page: () => import('./pages/docs/TypeList') },
      { path: 'list', name: 'menu.docs.list', keys: ['auth_docs_list'], page: () => import('./pages/docs/List') },
      { path: 'props/:id?', name: 'menu.docs.props', keys: ['auth_docs_manage'], page: () => import('./pages/docs/Props') },
      { path: 'add', name: 'menu.docs.add', keys: ['auth_docs_add'], page: docPropsForm },
      { path: 'update/props/:id?', name: 'menu.docs.updateProps', keys: ['auth_docs_edit'], page: docPropsForm },
      {
        path: 'update/content/:categoryId/:id',
        name: 'menu.docs.updateContent',
        keys: ['auth_docs_content_edit'],
        page: () => import('./pages/docs/Editor'), // the only docs chunk with TipTap
      },
      { path: 'category', name: 'menu.docs.category', keys: ['auth_docs_category_manage'], page: () => import('./pages/docs/Category') },
    ],
  },
  {
    path: 'message',
    name: 'menu.message',
    keys: ['auth_message'],
    hideInMenu: true,
    redirect: '/manage/message/list',
    children: [
      { path: 'list', name: 'menu.message.list', keys: ['auth_message_list'], page: () => import('./pages/message/List') },
      { path: 'setting', name: 'menu.message.setting', keys: ['auth_message_setting'], page: () => import('./pages/message/Setting') },
    ],
  },
  {
    path: 'system',
    name: 'menu.system',
    keys: ['auth_system'],
    flatMenu: true,
    group: 2,
    redirect: '/manage/system/welcome',
    children: [
      { path: 'welcome', name: 'menu.welcome', hideInMenu: true, noLoading: true, page: welcome },
      {
        path: 'role',
        name: 'menu.role',
        keys: ['auth_role'],
        icon: 'role',
        redirect: '/manage/system/role/list',
        children: [
          { path: 'list', name: 'menu.role.list', keys: ['auth_role_list'], hideInMenu: true, page: () => import('./pages/system/role/List') },
          { path: 'auth/menu/:RoeId', name: 'menu.role.authMenu', keys: ['auth_role_authMenu'], hideInMenu: true, page: () => import('./pages/system/role/AuthMenu') },
          { path: 'auth/data/:RoeId', name: 'menu.role.authData', keys: ['auth_role_authData'], hideInMenu: true, page: () => import('./pages/system/role/AuthData') },
        ],
      },
      {
        path: 'config-model',
        name: 'menu.configModel',
        keys: ['auth_dict'],
        icon: 'configModel',
        redirect: '/manage/system/config-model/list',
        children: [
          { path: 'list', name: 'menu.configModel.list', page: () => import('./pages/system/configModel/Items') },
          { path: 'group', name: 'menu.configModel.group', keys: ['auth_dict_group'], page: () => import('./pages/system/configModel/Groups') },
        ],
      },
      {
        path: '',
        name: 'menu.deviceModel',
        keys: ['auth_deviceModel'],
        icon: 'deviceModel',
        children: [
          { path: 'device-model/:id?', name: 'menu.deviceModel.list', menuPath: 'device-model', page: () => import('./pages/system/deviceModel') },
          { path: 'device-model-alias', name: 'menu.deviceModel.alias', keys: ['auth_deviceModel_alias'], page: () => import('./pages/system/deviceModel/Alias') },
        ],
      },
      {
        path: 'logs',
        name: 'menu.logs',
        keys: ['auth_logs'],
        icon: 'logs',
        redirect: '/manage/system/logs/action/login',
        children: [
          {
            path: 'action/:type?/:id?',
            name: 'menu.logs.action',
            keys: ['auth_logs_action'],
            menuPath: 'action',
            page: () => import('./pages/system/logs/ActionLogs'),
          },
          { path: 'protocol', name: 'menu.logs.protocol', keys: ['auth_logs_protocol'], page: () => import('./pages/system/logs/ProtocolLogs') },
          { path: 'error', name: 'menu.logs.error', keys: ['auth_logs_error'], page: () => import('./pages/system/logs/ErrorLogs') },
        ],
      },
      {
        path: 'customer',
        name: 'menu.customer',
        keys: ['auth_customer'],
        icon: 'customer',
        redirect: '/manage/system/customer/list',
        children: [
          { path: 'list', name: 'menu.customer.list', keys: ['auth_customer_list'], hideInMenu: true, page: () => import('./pages/system/customer/List') },
          { path: 'detail/:id', name: 'menu.customer.detail', keys: ['auth_customer_detail'], hideInMenu: true, page: () => import('./pages/system/customer/Detail') },
        ],
      },
      {
        path: 'user',
        name: 'menu.user',
        keys: ['auth_user'],
        icon: 'user',
        redirect: '/manage/system/user/list',
        children: [
          { path: 'list', name: 'menu.user.list', keys: ['auth_user_list'], hideInMenu: true, page: () => import('./pages/system/user/List') },
          { path: 'add', name: 'menu.user.add', keys: ['auth_user_add'], hideInMenu: true, page: userForm },
          { path: 'update/:id', name: 'menu.user.update', keys: ['auth_user_edit'], hideInMenu: true, page: userForm },
          { path: 'auth/:id', name: 'menu.user.auth', keys: [USER_ASSIGN_KEYS], hideInMenu: true, page: () => import('./pages/system/user/Auth') },
          { path: 'detail/:id', name: 'menu.user.detail', keys: ['auth_user_detail'], hideInMenu: true, page: () => import('./pages/system/user/Detail') },
        ],
      },
      {
        path: 'dashboard',
        name: 'menu.dashboard',
        keys: ['auth_system_dashboard'],
        icon: 'dashboard',
        page: () => import('./pages/system/dashboard'),
      },
      { path: 'menu', name: 'menu.menu', keys: ['auth_menu'], icon: 'menu', page: () => import('./pages/system/menu') },
      {
        path: 'application',
        name: 'menu.application',
        keys: ['auth_application'],
        icon: 'application',
        redirect: '/manage/system/application/list',
        children: [
          { path: 'list', name: 'menu.application.list', keys: ['auth_application_list'], hideInMenu: true, page: () => import('./pages/system/application/List') },
          // update reuses the add screen
          { path: 'add', name: 'menu.application.add', keys: ['auth_application_add'], hideInMenu: true, page: appForm },
          { path: 'update/:id', name: 'menu.application.update', keys: ['auth_application_edit'], hideInMenu: true, page: appForm },
          { path: 'detail/:id', name: 'menu.application.detail', keys: ['auth_application_detail'], hideInMenu: true, page: () => import('./pages/system/application/Detail') },
        ],
      },
      {
        path: 'openapi',
        name: 'menu.openapi',
        keys: ['auth_openapi_app'],
        icon: 'openapi',
        redirect: '/manage/system/openapi/list',
        children: [
          { path: 'list', name: 'menu.openapi.list', hideInMenu: true, page: () => import('./pages/system/openapi/List') },
          { path: 'logDetail/:id/:appId', name: 'menu.openapi.logDetail', hideInMenu: true, page: () => import('./pages/system/openapi/LogDetail') },
        ],
      },
      { path: 'list', name: 'menu.blacklist', keys: ['auth_black_device'], icon: 'blacklist', breadcrumb: true, page: () => import('./pages/system/blacklist') },
    ],
  },
];


/** Top-level pages outside /manage; all public. */
export const publicPages = {
  login: (() => import('./pages/user/Login')) as PageLoader,
  findPassword: (() => import('./pages/user/FindPassword')) as PageLoader,
  resetPassword: (() => import('./pages/user/ResetPassword')) as PageLoader,
  shareFile: (() => import('./pages/share/File')) as PageLoader,
  shareIssue: (() => import('./pages/share/Issue')) as PageLoader,
  error: (() => import('./pages/exception/ErrorPage')) as PageLoader,
  notFound: (() => import('./pages/exception/NotFound')) as PageLoader,
  forbidden: (() => import('./pages/exception/Forbidden')) as PageLoader,
};

/** Top-level paths (docs/decisions.md#route-keys). */
export const TOP_PATHS = {
  root: '/',
  login: '/login',
  findPassword: '/find-password',
  resetPassword: '/find-password/reset',
  shareFile: '/share/file',
  shareIssue: '/share/issue',
  manage: MANAGE_BASE,
  error: '/error',
  forbidden: '/403',
} as const;
