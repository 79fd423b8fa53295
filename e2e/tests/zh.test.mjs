// zh-CN has no English: root visits the main screens of a seeded organisation, with a charger
// connected over OCPP 1.6J (ocpp-rpc) that reports a fault and meter values, and every visible
// run of three or more Latin letters, in text and in input placeholders, must be on the
// allow-list (codes, units, product names, data the test typed). Elements marked translate="no"
// hold codes shown next to their name. Screens: the dashboards (home, system overview), sites,
// devices (detail with its alarms, logs and charts; remote; the batch-operation dialog), the
// protocol logs, the blacklist (its three tabs) and the system screens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RPCClient } from 'ocpp-rpc';
import { startServer, openBrowser, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

const SN = 'ZH-CP-0001';
const MODEL = 'ZH-AC-22';
// Latin words allowed on a zh-CN screen: the signed-in user's name, units, product and protocol names.
const ALLOWED = new Set(['root', 'admin', 'ChargeOps', 'chargeops', 'OCPP', 'ocpp', 'kWh', 'rpm', 'WEB', 'SSH', 'MAC', 'URL', 'JSON', 'xlsx',
  'GET', 'POST', 'PUT', 'DELETE', 'OpenAPI', 'example', 'com', 'VPN', 'PCS', 'V2G',
  // OCPP answer codes the server shows next to their Chinese name: "已拒绝（Rejected）"
  'Rejected', 'Accepted', 'NotSupported',
  // the zone beside every shown time ("UTC+8", or "UTC" where the browser runs in UTC, as in CI)
  'UTC']);

let server;
let browser;
let root;
let charger;

before(async () => {
  server = await startServer();
  browser = await openBrowser('zh-CN');
  await browser.context.addInitScript(() => localStorage.setItem('chargeops_locale', 'zh-CN'));
  root = await new Api(server.url).login(ROOT_NAME, ROOT_PASSWORD);
  await root.acceptPrivacy();
});

after(async () => {
  await charger?.close({ force: true }).catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

/** Visible Latin runs outside translate="no" elements and URL paths, minus the allow-list. */
async function latinWords(page) {
  const words = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent.trim();
      if (!el || !text || el.closest('[translate="no"], script, style, noscript, svg')) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      // antd's select keeps a zero-sized list for screen readers: option values (codes) as
      // text, the shown label as aria-label
      const a11y = el.closest('[role="listbox"]');
      if (a11y && (a11y.getBoundingClientRect().width === 0 || a11y.getBoundingClientRect().height === 0)) continue;
      if (/^\/[\w/{}:.\-?=&]*$/.test(text)) continue; // an API path or a page URL
      for (const m of text.matchAll(/[A-Za-z]{3,}/g)) out.push(m[0]);
    }
    // what an empty input asks for is read too
    for (const el of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
      if (el.closest('[translate="no"]') || !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      for (const m of el.getAttribute('placeholder').matchAll(/[A-Za-z]{3,}/g)) out.push(m[0]);
    }
    return out;
  });
  return [...new Set(words.filter((w) => !ALLOWED.has(w)))];
}

async function visit(page, path, ready) {
  await page.goto(`${server.url}${path}`);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
  return latinWords(page);
}

test('root sees the main screens in zh-CN without English', async () => {
  const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: '深圳充电', code: 'SZ01' });
  const site = await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: '福田停车场', code: 'FT-01' });
  const model = await root.must('POST', '/api/auth/sys/dev/model/add', { name: MODEL, deviceType: 1 });
  // the model's control names are English (typed once): zh-CN shows the type's name
  for (const [code, name, level] of [[1, 'Soft reboot', 3], [2, 'Hard reboot', 2], [3, 'Disable system', 2], [9, 'Refresh configuration', 4]]) {
    await root.must('POST', '/api/auth/sys/dev/model/item/add', { modelId: model.id, kind: 'control', controlName: name, controlTypeCode: code, controlLevel: level });
  }
  // a config item with the standard OCPP names typed in English: zh-CN shows them in Chinese
  await root.must('POST', '/api/auth/sys/dev/model/item/add', {
    modelId: model.id, kind: 'config', configGroup: 'Core', configItem: 'Heartbeat interval (s)', protocolKey: 'HeartbeatInterval',
    readLevel: 5, writeLevel: 2, dataType: 'int', dataRange: '10~3600',
  });
  const device = await root.must('POST', '/api/auth/sys/dev/basic/add', { sn: SN, name: '一号桩', modelId: model.id, siteId: site.id, maintenanceCycle: 90 });
  const role = await root.must('POST', '/api/auth/sys/role/add', { name: '运维' });

  charger = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: SN, protocols: ['ocpp1.6'], strictMode: true, reconnect: false });
  charger.handle('Reset', () => ({ status: 'Rejected' }));
  charger.handle('GetConfiguration', () => ({ configurationKey: [{ key: 'HeartbeatInterval', readonly: false, value: '300' }] }));
  await charger.connect();
  const now = () => new Date().toISOString();
  assert.equal((await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: MODEL, firmwareVersion: '1.0.0' })).status, 'Accepted');
  await charger.call('StatusNotification', { connectorId: 0, errorCode: 'NoError', status: 'Available', timestamp: now() });
  await charger.call('StatusNotification', { connectorId: 1, errorCode: 'GroundFailure', status: 'Faulted', timestamp: now() });
  // a blacklisted and an unknown SN knock: the refusals and the pending list have rows
  await root.must('POST', '/api/auth/sys/dev/blacklist/add', { sn: 'ZH-BL-0001', mac: '', protocolVersion: 'ocpp1.6' });
  for (const sn of ['ZH-BL-0001', 'ZH-X-0002']) {
    const knock = new RPCClient({ endpoint: `${server.url.replace('http', 'ws')}/ocpp`, identity: sn, protocols: ['ocpp1.6'], reconnect: false });
    await assert.rejects(knock.connect(), undefined, `${sn} is refused`);
  }
  // the configuration is read once, so the device's configuration screen lists the item
  const read = await root.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: 9, params: {} });
  for (let i = 0; ; i++) {
    const c = await root.must('GET', `/api/auth/sys/dev/control/detail?id=${read.commands[0].id}`);
    if (c.result === 2) break;
    assert.ok(c.result === 1 && i < 100, `GetConfiguration ended with ${c.result} ${c.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await charger.call('MeterValues', {
    connectorId: 1,
    meterValue: [{ timestamp: now(), sampledValue: [
      { value: '31.5', measurand: 'Temperature', unit: 'Celsius' },
      { value: '230.1', measurand: 'Voltage', unit: 'V' },
    ] }],
  });

  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
  await page.waitForURL('**/manage/**');

  const found = {};
  const check = async (path, ready, name = path) => {
    const words = await visit(page, path, ready);
    if (words.length) found[name] = words;
  };
  /** The screen as it is now (a tab, a dialog, an open list), under `name`. */
  const collect = async (name) => {
    const words = await latinWords(page);
    if (words.length) found[name] = [...new Set([...(found[name] ?? []), ...words])];
  };
  await check('/manage/home', 'main');
  await check('/manage/site/list', '.ant-table-row');
  await check(`/manage/site/detail/${site.id}`, 'main');
  await check('/manage/device/list', '.ant-table-row');
  await check(`/manage/device/detail/${device.id}`, '[data-testid="section-runtime"] .ant-descriptions');
  // the fault and the values by their Chinese names, with the catalogue's unit
  await page.getByText('接地故障').first().waitFor();
  await page.getByText('温度').first().waitFor();
  await page.getByText('31.5 °C').first().waitFor();
  // the configuration screen: the standard group and item names in Chinese, no English name
  const configRow = page.locator('[data-testid="section-config"] tr[data-row-key="HeartbeatInterval"]');
  await configRow.getByText('心跳间隔（秒）').waitFor();
  await configRow.getByText('基本参数').waitFor();
  // (the protocol key HeartbeatInterval is a code, marked translate="no")
  assert.deepEqual((await latinWords(page)).filter((w) => /heartbeat/i.test(w)), [], 'no English config name on the configuration screen');
  await check(`/manage/device/detail/${device.id}/remote`, '[data-testid="control-1"]');
  assert.equal(await page.getByTestId('control-1').textContent(), '软重启');
  // a command the charger refuses: the confirm and the result in Chinese
  await page.getByTestId('control-1').click();
  await page.locator('.ant-modal-confirm-title', { hasText: `对 ${SN} 执行“软重启”？` }).waitFor();
  found.confirm = await latinWords(page);
  if (!found.confirm.length) delete found.confirm;
  await page.getByTestId('confirm-ok').click();
  await page.locator('[data-testid="command-results"] [data-testid="command-result"][data-result="3"]').waitFor({ timeout: 20000 });
  assert.match(await page.getByTestId('command-message').first().textContent(), /设备应答：已拒绝/);
  const afterCommand = await latinWords(page);
  if (afterCommand.length) found.command = afterCommand;
  await check('/manage/system/user/list', '.ant-table-row');
  await check('/manage/system/role/list', '.ant-table-row');
  await check(`/manage/system/role/auth/menu/${role.id}`, '.ant-tree-title');
  await check(`/manage/system/role/auth/data/${role.id}`, '[data-testid="role-level-hint"]');
  assert.match(await page.getByTestId('role-level-hint').textContent(), /0 为最高/);
  await check('/manage/system/device-model', '.ant-table-row');
  // the model's items: the config item and the control names in Chinese
  await check(`/manage/system/device-model/${model.id}`, '[data-testid="model-detail"] .ant-table-row');
  await page.locator('[data-testid="model-detail"] .ant-table-row', { hasText: '心跳间隔（秒）' }).getByText('基本参数').waitFor();
  await page.getByTestId('model-detail').getByRole('tab', { name: '控制项' }).click();
  await page.locator('[data-testid="model-detail"] .ant-table-row', { hasText: '软重启' }).first().waitFor();
  await collect(`/manage/system/device-model/${model.id}#control`);
  await check('/manage/system/config-model/list', '.ant-table-row');
  await check('/manage/system/config-model/group', '.ant-table-row');
  await check('/manage/system/logs/action', '.ant-table-row');
  await check('/manage/system/menu', 'main');

  // the device page's alarms, logs (protocol and command tabs) and charts
  const detail = `/manage/device/detail/${device.id}`;
  await check(detail, '[data-testid="section-alarms"] .ant-table-row', `${detail}#alarms`);
  await page.locator('[data-testid="section-alarms"]').getByText('接地故障').first().waitFor();
  await page.locator('[data-testid="section-logs"] .ant-table-row').first().waitFor();
  await page.locator('[data-testid="section-charts"]').waitFor();
  const logs = page.getByTestId('section-logs');
  await logs.getByRole('tab', { name: '指令记录' }).click();
  await logs.locator('[data-testid="command-history"] .ant-table-row').first().waitFor();
  await collect(`${detail}#commands`);
  const charts = page.getByTestId('section-charts');
  await charts.getByTestId('chart-items').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '温度' }).first().click();
  await page.keyboard.press('Escape');
  await charts.getByTestId('chart-step').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
  await collect(`${detail}#chart-steps`);
  await page.keyboard.press('Escape');
  await charts.getByTestId('chart-show').click();
  await charts.locator('canvas, .ant-empty').first().waitFor();
  await page.waitForLoadState('networkidle');
  await collect(`${detail}#charts`);

  // the protocol logs, the blacklist (and its other tabs), the dashboards
  await check('/manage/system/logs/protocol', '.ant-table-row');
  await check('/manage/system/list', '.ant-table-row');
  await check('/manage/system/list?tab=pending', '.ant-table-row');
  await check('/manage/system/list?tab=refusals', '.ant-table-row');
  await check('/manage/system/dashboard', '[data-testid="system-overview"] [data-testid="system-info"]');
  // the overview's recent events list the charger's fault
  await page.locator('[data-testid="system-events"] .ant-table-row', { hasText: SN }).first().waitFor();
  await collect('/manage/system/dashboard#overview');
  await check('/manage/home', '[data-testid="home-dashboard"][data-ready="1"]', '/manage/home#dashboard');

  // the device list's batch-operation dialog, its operations listed
  await visit(page, '/manage/device/list', '.ant-table-row');
  await page.locator('.ant-table-row', { hasText: SN }).locator('.ant-checkbox-input').check();
  await page.getByTestId('device-batch').click();
  await page.getByTestId('batch-modal').waitFor();
  await collect('batch');
  await page.getByTestId('batch-type').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
  await collect('batch#types');
  await page.keyboard.press('Escape');
  // antd's own texts follow the locale: pagination and an empty table
  await page.goto(`${server.url}/manage/system/config-model/list`);
  await page.locator('.ant-pagination-options').getByText('条/页').first().waitFor();
  await page.goto(`${server.url}/manage/system/config-model/list?name=nothing-like-this`);
  await page.locator('.ant-empty-description', { hasText: '暂无数据' }).first().waitFor();
  assert.deepEqual(found, {}, `English on zh-CN screens:\n${JSON.stringify(found, null, 1)}`);
  await page.close();
});
