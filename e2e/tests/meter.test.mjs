// Issue 22, exact meter data on the device page, in Chromium in both languages: a charger (the
// npm ocpp-rpc client in strict mode) sends energy in kWh and in Wh, power in kW, temperatures
// at the body and the outlet and voltages on three phases; the page shows the latest energy in
// kWh (not a stored Wh value labelled kWh), and the charts draw energy in kWh and power in kW
// with the unit on the axis (two units a chart), one line per phase and location named in the legend.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { chargerFixture, localeFixture, rootPage } from '../lib.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS; // a directory: save screenshots there

const TEXT = {
  'en-US': { body: 'Temperature · Body', phase: / L2-N$/ },
  'zh-CN': { body: '温度 · 机身', phase: / L2-N$/ },
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

    test(`the device page shows kWh and kW with units and a line per phase and location (${locale})`, async () => {
      const sn = `E2E-METER-${locale === 'en-US' ? 'EN' : 'ZH'}`;
      const made = await chargerFixture(server, root, { sn, name: 'Meter', model: 'METER-AC-22' });
      const { device } = made;
      charger = made.charger;
      await charger.connect();
      const boot = await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'METER-AC-22' });
      assert.equal(boot.status, 'Accepted');
      await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging', timestamp: new Date().toISOString() });
      const now = Date.now();
      for (let i = 0; i < 6; i++) {
        const at = new Date(now - (6 - i) * 60_000).toISOString();
        // even minutes in kWh and kW, odd ones in Wh and W: one series each
        const kilo = i % 2 === 0;
        const wh = 12_345 + i * 100;
        const w = 7_200 + i * 10;
        await charger.call('MeterValues', {
          connectorId: 1,
          meterValue: [{
            timestamp: at,
            sampledValue: [
              { value: String(kilo ? wh / 1000 : wh), measurand: 'Energy.Active.Import.Register', unit: kilo ? 'kWh' : 'Wh' },
              { value: String(kilo ? w / 1000 : w), measurand: 'Power.Active.Import', unit: kilo ? 'kW' : 'W' },
              { value: String(40 + i), measurand: 'Temperature', location: 'Body', unit: 'Celsius' },
              { value: String(30 + i), measurand: 'Temperature', location: 'Outlet', unit: 'Celsius' },
              { value: String(229 + i), measurand: 'Voltage', phase: 'L1-N', unit: 'V' },
              { value: String(230 + i), measurand: 'Voltage', phase: 'L2-N', unit: 'V' },
              { value: String(231 + i), measurand: 'Voltage', phase: 'L3-N', unit: 'V' },
            ],
          }],
        });
      }

      // the API: one series in Wh, its unit with it
      const series = await root.must('POST', '/api/auth/sys/dev/data/series', {
        deviceId: device.id, names: ['Energy.Active.Import.Register', 'Temperature@Body', 'Temperature'], connectorId: 1,
        startTime: now - 3600_000, endTime: now + 60_000, step: 1,
      });
      assert.deepEqual(series.map((s) => s.unit), ['Wh', 'Celsius', 'Celsius']);
      assert.deepEqual(series[0].points.map((p) => p.avg), [12345, 12445, 12545, 12645, 12745, 12845]);
      assert.deepEqual(series[1].points.map((p) => p.avg), [40, 41, 42, 43, 44, 45]);

      const page = await rootPage(browser, server, { to: `/manage/device/detail/${device.id}` });

      // the latest values: energy in kWh (12845 Wh), power in kW, the body temperature named
      const runtime = page.getByTestId('section-runtime');
      await runtime.getByText('12.845 kWh').waitFor({ timeout: 45_000 }).catch(async (e) => {
        if (shots) await page.screenshot({ path: join(shots, `meter-failed-${locale}.png`), timeout: 60_000 });
        throw e;
      });
      await runtime.getByText('7.25 kW').waitFor();
      await runtime.getByText(L.body).first().waitFor();

      const charts = page.getByTestId('section-charts');
      await charts.scrollIntoViewIfNeeded();
      // the charts open without a choice (issue 30): every item of the connector, two units a chart
      const chart = charts.getByTestId('series-charts');
      await chart.waitFor({ timeout: 30_000 });
      const axes = (await chart.getAttribute('data-axes')).split('|');
      assert.deepEqual(axes, ['kW', 'kWh', 'V', '°C']);
      const panels = charts.getByTestId('series-chart');
      assert.equal(await panels.count(), 2);
      assert.equal(await panels.nth(0).getAttribute('data-axes'), 'kW|kWh');
      const legend = (await chart.getAttribute('data-legend')).split('|');
      assert.equal(legend.length, 7, `one line per series: ${legend}`);
      assert.equal(new Set(legend).size, 7, `each line named apart: ${legend}`);
      assert.ok(legend.includes(L.body), `${L.body} in ${legend}`);
      assert.ok(legend.some((l) => L.phase.test(l)), `a phase in ${legend}`);
      await page.waitForLoadState('networkidle');
      if (shots) {
        await charts.screenshot({ path: join(shots, `meter-chart-${locale}.png`) });
        await runtime.screenshot({ path: join(shots, `meter-runtime-${locale}.png`) });
      }
      await page.close();
    });
  });
}
