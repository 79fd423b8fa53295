// Issue 30, items 10 and 11, in Chromium: a charger (the npm ocpp-rpc client in strict mode) that
// started 20 minutes ago sends power, energy, current, voltage, SoC and temperature. The device's
// data charts open without a choice on the last hour (not squeezed into 24 h), each chart has at
// most two y axes (the six units are stacked charts with one grid), and the quick ranges switch
// the range. The site's statistics draw no zeros for the days after today, and the stacked
// traffic charts share one fixed grid.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { chargerFixture, localeFixture, rootPage } from '../lib.mjs';

const shots = process.env.CHARGEOPS_E2E_SHOTS; // a directory: save screenshots there
const H = 3600_000;

const TEXT = {
  'en-US': { sixHours: 'Last 6 h', week: 'Last 7 days', custom: 'Custom range', year: 'Year' },
  'zh-CN': { sixHours: '最近 6 小时', week: '最近 7 天', custom: '自定义范围', year: '年' },
};

for (const locale of ['en-US', 'zh-CN']) {
  describe(locale, () => {
    const L = TEXT[locale];
    let server;
    let browser;
    let root;
    let charger;
    let device;
    let site;

    before(async () => {
      ({ server, browser, root } = await localeFixture(locale));
      const sn = `E2E-CHARTS-${locale === 'en-US' ? 'EN' : 'ZH'}`;
      ({ site, device, charger } = await chargerFixture(server, root, { sn, name: 'Charts', model: 'CHARTS-DC-60' }));
      await charger.connect();
      const boot = await charger.call('BootNotification', { chargePointVendor: 'E2E', chargePointModel: 'CHARTS-DC-60' });
      assert.equal(boot.status, 'Accepted');
      await charger.call('StatusNotification', { connectorId: 1, errorCode: 'NoError', status: 'Charging', timestamp: new Date().toISOString() });
      // the charger's first reading was 20 minutes ago, one every two minutes since
      const now = Date.now();
      for (let i = 0; i < 10; i++) {
        const at = new Date(now - (20 - 2 * i) * 60_000).toISOString();
        await charger.call('MeterValues', {
          connectorId: 1,
          meterValue: [{
            timestamp: at,
            sampledValue: [
              { value: String(380 + i), measurand: 'Voltage', unit: 'V' },
              { value: String(120 + i), measurand: 'Current.Import', unit: 'A' },
              { value: String(45_000 + i * 100), measurand: 'Power.Active.Import', unit: 'W' },
              { value: String(100_000 + i * 1500), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
              { value: String(40 + i), measurand: 'SoC', unit: 'Percent' },
              { value: String(31 + i / 2), measurand: 'Temperature', unit: 'Celsius' },
            ],
          }],
        });
      }
    });

    after(async () => {
      await charger?.close({ force: true }).catch(() => undefined);
      await browser?.close();
      await server?.stop();
    });

    test(`the device charts open on the last hour with at most two y axes a chart (${locale})`, async () => {
      const page = await rootPage(browser, server, { viewport: { width: 1440, height: 900 }, to: `/manage/device/detail/${device.id}` });

      // no item picked, no button pressed: the charts are there
      const charts = page.getByTestId('section-charts');
      const stack = charts.getByTestId('series-charts');
      await stack.waitFor({ timeout: 45_000 });
      await charts.scrollIntoViewIfNeeded();
      assert.equal(await charts.getByTestId('chart-quick').getAttribute('data-quick'), '1h', 'data of the last 20 minutes opens on 1 h');
      const [start, end] = (await stack.getAttribute('data-range')).split('-').map(Number);
      assert.equal(end - start, H, 'the x axis spans the hour');

      // six units: power and energy, current and voltage, SoC and temperature, two a chart
      assert.deepEqual((await stack.getAttribute('data-axes')).split('|').sort(), ['%', 'A', 'V', 'kW', 'kWh', '°C'].sort());
      const panels = charts.getByTestId('series-chart');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="series-chart"] canvas').length >= 3);
      const count = await panels.count();
      assert.equal(count, 3, 'three stacked charts');
      const grids = new Set();
      for (let i = 0; i < count; i++) {
        const p = panels.nth(i);
        const n = Number(await p.getAttribute('data-y-axes'));
        assert.ok(n >= 1 && n <= 2, `chart ${i} has ${n} y axes`);
        assert.equal((await p.getAttribute('data-axes')).split('|').length, n);
        grids.add(await p.getAttribute('data-grid'));
        assert.equal(await p.getAttribute('data-range'), `${start}-${end}`, 'every chart spans the same range');
      }
      assert.equal(grids.size, 1, `one grid for the stack: ${[...grids]}`);
      // energy in kWh: 100000 Wh + ... is drawn against a kWh axis, power against kW
      const units = [];
      for (let i = 0; i < count; i++) units.push(await panels.nth(i).getAttribute('data-axes'));
      assert.ok(units.includes('kW|kWh'), `power and energy share a chart: ${units}`);
      await page.waitForLoadState('networkidle');
      if (shots) await charts.screenshot({ path: join(shots, `charts-device-${locale}.png`) });

      // a quick range switches the range at once, its step with it
      await charts.getByTestId('chart-quick').getByText(L.sixHours).click();
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-testid="series-charts"]');
        if (!el) return false;
        const [s, e] = el.getAttribute('data-range').split('-').map(Number);
        return e - s === 6 * 3600_000;
      });
      assert.equal(await charts.getByTestId('chart-quick').getAttribute('data-quick'), '6h');
      await charts.getByTestId('chart-quick').getByText(L.week).click();
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-testid="series-charts"]');
        if (!el) return false;
        const [s, e] = el.getAttribute('data-range').split('-').map(Number);
        return e - s === 7 * 24 * 3600_000;
      });
      // a custom range starts from the shown one and is drawn when asked for
      await charts.getByTestId('chart-quick').getByText(L.custom).click();
      await charts.getByTestId('chart-range').first().waitFor();
      await charts.getByTestId('chart-show').click();
      await page.waitForFunction(() => {
        const el = document.querySelector('[data-testid="series-charts"]');
        const [s, e] = (el?.getAttribute('data-range') ?? '0-0').split('-').map(Number);
        return document.querySelector('[data-testid="chart-quick"]')?.getAttribute('data-quick') === 'custom' && Math.abs(e - s - 7 * 24 * 3600_000) < 5 * 60_000;
      });
      await page.close();
    });

    test(`the site statistics draw nothing after today and stack their charts on one grid (${locale})`, async () => {
      const page = await rootPage(browser, server, { viewport: { width: 1440, height: 900 }, to: `/manage/site/detail/${site.id}` });
      const traffic = page.getByTestId('site-traffic-chart');
      await traffic.waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => document.querySelector('[data-testid="site-traffic-chart"]')?.getAttribute('data-loading') === '0');

      /** Buckets of the traffic chart: [time, sessions, energy] as the chart draws them. */
      const buckets = () =>
        page.$$eval('[data-testid^="site-traffic-chart-bucket-"]', (els) =>
          els.map((e) => [Number(e.getAttribute('data-time')), e.getAttribute('data-sessions'), e.getAttribute('data-energykwh')]),
        );
      let bs = await buckets();
      assert.ok(bs.length > 0, 'the chart has buckets');
      if (!bs.some(([t]) => t > Date.now())) {
        // the last day of the month: the year has months after this one (or the week days)
        await page.getByTestId('site-period-period').getByText(L.year, { exact: true }).click();
        await page.waitForFunction(() => document.querySelector('[data-testid="site-period"]')?.getAttribute('data-period') === 'year');
        // the year's twelve month buckets, not the month's days still drawn while the year loads
        await page.waitForFunction(
          () =>
            document.querySelector('[data-testid="site-traffic-chart"]')?.getAttribute('data-loading') === '0' &&
            document.querySelectorAll('[data-testid^="site-traffic-chart-bucket-"]').length === 12,
        );
        bs = await buckets();
      }
      const now = Date.now();
      const future = bs.filter(([t]) => t > now);
      const past = bs.filter(([t]) => t <= now);
      assert.ok(future.length > 0, `buckets after now in the range: ${bs.length}`);
      for (const [t, sessions, energy] of future) {
        assert.equal(sessions, '', `no sessions figure drawn at ${new Date(t).toISOString()}`);
        assert.equal(energy, '', `no energy figure drawn at ${new Date(t).toISOString()}`);
      }
      for (const [t, sessions] of past) assert.notEqual(sessions, '', `a figure for ${new Date(t).toISOString()}`);

      // the stacked charts share one fixed grid (the charge-time chart shows when there is charging time)
      const grid = await traffic.getAttribute('data-grid');
      assert.match(grid, /^\d+,\d+$/, 'a fixed grid, not one sized by the labels of each chart');
      const time = page.getByTestId('site-charge-time-chart');
      if (await time.count()) assert.equal(await time.getAttribute('data-grid'), grid);
      await page.waitForLoadState('networkidle');
      if (shots) await page.getByTestId('site-stats').screenshot({ path: join(shots, `charts-site-${locale}.png`) });
      await page.close();
    });
  });
}
