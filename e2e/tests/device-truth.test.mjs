// Issue 30 items 8 and 9, the device page agrees with itself, in Chromium in both languages: a
// charger (the npm ocpp-rpc client in strict mode) boots with firmware 1.0.0, the page is open;
// it accepts a Reset (its connector must read Unavailable, "Restarting", not Available), boots
// again with 1.69.0 (basic information and runtime both say 1.69.0 without a reload), then
// reports firmware progress (the status reads "Firmware update" and the progress is named in
// the user's language while it runs, Installed ends it; the UpdateFirmware command's own row in
// the command history goes Accepted → Installing → Installed). Item 1 (kWh): tests/meter.test.mjs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { chargerFixture, localeFixture, rootPage } from '../lib.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS; // a directory: save screenshots there

const TEXT = {
  'en-US': {
    unavailable: 'Unavailable', restarting: 'Restarting', firmwareUpdate: 'Firmware update', downloading: 'Downloading', idle: 'Idle',
    commands: 'Command history', accepted: 'Accepted', installing: 'Installing', installed: 'Installed',
  },
  'zh-CN': {
    unavailable: '不可用', restarting: '重启中', firmwareUpdate: '固件升级', downloading: '下载中', idle: '空闲',
    commands: '指令记录', accepted: '已接受', installing: '安装中', installed: '已安装',
  },
};

for (const locale of ['en-US', 'zh-CN']) {
  describe(locale, () => {
    const L = TEXT[locale];
    let server;
    let browser;
    let root;
    let charger;

    before(async () => {
      ({ server, browser, root } = await localeFixture(locale));
    });

    after(async () => {
      await charger?.close({ force: true }).catch(() => undefined);
      await browser?.close();
      await server?.stop();
    });

    test(`reset, new firmware and firmware progress show the same truth everywhere (${locale})`, async () => {
      const sn = `E2E-TRUTH-${locale === 'en-US' ? 'EN' : 'ZH'}`;
      const made = await chargerFixture(server, root, { sn, name: 'Truth', model: 'TRUTH-AC-22' });
      const { device } = made;
      charger = made.charger;
      charger.handle('Reset', () => ({ status: 'Accepted' }));
      charger.handle('UpdateFirmware', () => ({}));
      await charger.connect();
      const boot = async (fw) => {
        const b = await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'TRUTH-AC-22', firmwareVersion: fw });
        assert.equal(b.status, 'Accepted');
      };
      await boot('1.0.0');
      await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: new Date().toISOString() });

      const page = await rootPage(browser, server, { to: `/manage/device/detail/${device.id}` });
      const fail = async (e, what) => {
        if (shots) await page.screenshot({ path: join(shots, `device-truth-${what}-${locale}.png`), timeout: 60_000 });
        throw e;
      };
      const runtime = page.getByTestId('section-runtime');
      const basic = page.locator('.ant-card').filter({ has: page.getByText(sn, { exact: true }) }).first();
      await basic.getByText('1.0.0', { exact: true }).waitFor({ timeout: 30_000 });
      const connectors = runtime.getByTestId('runtime-connectors');
      await connectors.getByTitle('Available').waitFor({ timeout: 30_000 });

      // item 8: an accepted Reset: the connector reads Unavailable (restarting) until the charger boots again
      await root.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: 1, params: {} });
      await connectors.getByTitle('Unavailable').waitFor({ timeout: 30_000 }).catch((e) => fail(e, 'reset'));
      await connectors.getByText(L.unavailable).waitFor();
      await connectors.getByText(L.restarting).waitFor();

      // item 8: the charger boots with 1.69.0: basic information follows without a reload
      await boot('1.69.0');
      await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Available', timestamp: new Date().toISOString() });
      await basic.getByText('1.69.0', { exact: true }).waitFor({ timeout: 30_000 }).catch((e) => fail(e, 'version'));
      await runtime.getByText('1.69.0', { exact: true }).waitFor({ timeout: 30_000 });
      assert.equal(await page.getByText('1.0.0', { exact: true }).count(), 0, 'no place still says 1.0.0');
      await connectors.getByTitle('Available').waitFor({ timeout: 30_000 });

      // item 9: an upgrade the charger accepts; its own row in the command history shows the
      // step the charger reports, named in the user's language, not only "Success"
      const fw = await root.must('POST', '/api/auth/sys/dev/firmware/add', { name: `truth-1.70-${locale}.bin` });
      const put = await fetch(server.url + fw.uploadUrl, { method: 'PUT', body: new Uint8Array(1024).fill(70) });
      assert.equal(put.status, 201, 'firmware uploaded');
      await root.must('POST', '/api/auth/sys/dev/control/send', { deviceIds: [device.id], controlType: 5, params: { firmwareId: fw.id } });
      await page.getByTestId('section-logs').getByRole('tab', { name: L.commands }).click();
      const history = page.getByTestId('command-history');
      const step = (s) => history.locator(`[data-testid=command-step][data-step=${s}]`).first();
      await step('Accepted').waitFor({ timeout: 30_000 }).catch((e) => fail(e, 'fw-accepted'));
      assert.match(await step('Accepted').innerText(), new RegExp(`^${L.accepted}`));

      // firmware progress while it runs, named in the user's language; the device status follows
      await charger.call('FirmwareStatusNotification', { status: 'Downloading' });
      await runtime.getByText(L.downloading, { exact: true }).first().waitFor({ timeout: 30_000 }).catch((e) => fail(e, 'firmware'));
      // the status and the runtime value both named, never the raw enum beside a translation
      assert.equal(await runtime.getByText(L.downloading, { exact: true }).count(), 2, 'firmware status and its runtime value');
      if (locale !== 'en-US') assert.equal(await runtime.getByText('Downloading', { exact: true }).count(), 0, 'no raw enum text');
      await basic.getByText(L.firmwareUpdate).first().waitFor({ timeout: 30_000 });
      await charger.call('FirmwareStatusNotification', { status: 'Downloaded' });
      await charger.call('FirmwareStatusNotification', { status: 'Installing' });
      // Installing changes no device status: the row follows all the same
      await step('Installing').waitFor({ timeout: 30_000 }).catch((e) => fail(e, 'fw-installing'));
      assert.match(await step('Installing').innerText(), new RegExp(`^${L.installing} 4/5`));
      if (shots) await page.screenshot({ path: join(shots, `device-truth-installing-${locale}.png`), fullPage: true });
      await charger.call('FirmwareStatusNotification', { status: 'Installed' });
      await step('Installed').waitFor({ timeout: 30_000 }).catch((e) => fail(e, 'fw-installed'));
      assert.equal((await step('Installed').innerText()).trim(), L.installed);
      assert.equal(await history.locator('[data-testid=command-step][data-step=Installing]').count(), 0, 'the row moved on from Installing');
      await basic.getByText(L.idle).first().waitFor({ timeout: 30_000 });
      assert.equal(await basic.getByText(L.firmwareUpdate).count(), 0, 'Installed ends the firmware update');
      if (shots) await page.screenshot({ path: join(shots, `device-truth-${locale}.png`), fullPage: true });
      await page.close();
    });
  });
}
