// Issue 8, the console shell, in Chromium in both languages: the sidebar stays in view on long
// pages and its collapse button covers no entry; menu management (system/menu) reaches every
// user's sidebar, and names each menu as the sidebar does.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { localeFixture, Api, signIn, ROOT_NAME, ROOT_PASSWORD } from '../lib.mjs';

/** What each language shows: sidebar entries, a rename as menu management stores it, titles. */
const TEXT = {
  'en-US': {
    sites: 'Sites', devices: 'Devices', blacklist: 'Device blacklist', privacy: 'Privacy policy',
    // only the English name is renamed: the English sidebar shows it
    rename: { en: 'Charging parks' }, renamed: 'Charging parks',
    longCo: 'Long List Co', longYard: 'Long Yard',
  },
  'zh-CN': {
    sites: '站点', devices: '设备', blacklist: '设备黑名单', privacy: '隐私政策',
    // both names renamed: the Chinese sidebar shows the Chinese one, never the English one
    rename: { en: 'Charging parks', zh: '充电园区' }, renamed: '充电园区', notShown: 'Charging parks',
    longCo: '长列表客户', longYard: '长列表场站',
  },
};

/** Scrolls the sidebar to its end as a person would, again while its menu is still animating. */
async function scrollSidebarToEnd(entry) {
  for (let i = 0; i < 10; i++) {
    const done = await entry.evaluate((el) => {
      const box = el.closest('[data-testid=sidebar]');
      box.scrollTop = box.scrollHeight;
      return box.scrollTop + box.clientHeight >= box.scrollHeight - 1;
    });
    await new Promise((r) => setTimeout(r, 300));
    if (done && (await entry.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight))) return;
  }
}

/** Where an element is in the viewport, and whether the point at its centre is the element. */
function placeOf(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { top: r.top, bottom: r.bottom, height: r.height, viewport: window.innerHeight, onTop: !!hit && (el === hit || el.contains(hit)) };
  });
}

for (const locale of ['en-US', 'zh-CN']) {
  describe(locale, () => {
    const L = TEXT[locale];
    let server;
    let browser;
    let root;

    before(async () => {
      ({ server, browser, root } = await localeFixture(locale));
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    async function freshPage() {
      await browser.context.clearCookies();
      return browser.context.newPage();
    }

    test(`the sidebar stays in view on a long page, and collapsing covers no entry (${locale})`, async () => {
      const customer = await root.must('POST', '/api/auth/sys/customer/add', { name: L.longCo, code: 'LONGCO' });
      for (let i = 1; i <= 40; i++) {
        await root.must('POST', '/api/auth/sys/site/add', { customerId: customer.id, name: `${L.longYard} ${String(i).padStart(2, '0')}`, code: `LONG-${i}` });
      }
      const page = await freshPage();
      await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD);
      await page.waitForURL('**/manage/home');
      assert.equal(await page.locator('html').getAttribute('lang'), locale);
      await page.goto(`${server.url}/manage/site/list?pageSize=50`);
      await page.getByText(`${L.longYard} 40`).waitFor();
      const sidebar = page.getByTestId('sidebar');
      const devices = sidebar.getByText(L.devices, { exact: true });

      // a long page: scroll to its end, the sidebar and its entries are still on screen
      assert.ok(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight * 1.5), 'the site list is a long page');
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.getByText(`${L.longYard} 40`).waitFor();
      assert.ok(await page.evaluate(() => window.scrollY > 0), 'the page scrolled');
      const place = await placeOf(devices);
      assert.ok(place.top >= 0 && place.bottom <= place.viewport, `"${L.devices}" is in view after scrolling: ${JSON.stringify(place)}`);
      assert.ok(place.onTop, `nothing covers "${L.devices}"`);
      await devices.click();
      await page.waitForURL('**/manage/device/list');

      // a short window: the sidebar scrolls on its own; the last entry can be reached and is not
      // under the collapse button (which lives in the header)
      await page.setViewportSize({ width: 1366, height: 420 });
      const last = sidebar.getByText(L.blacklist, { exact: true });
      await scrollSidebarToEnd(last);
      const lastPlace = await placeOf(last);
      const box = await last.evaluate((el) => { const b = el.closest('[data-testid=sidebar]'); return { scrollTop: b.scrollTop, scrollHeight: b.scrollHeight, clientHeight: b.clientHeight }; });
      assert.ok(lastPlace.bottom <= lastPlace.viewport && lastPlace.onTop, `the last entry is visible and uncovered: ${JSON.stringify(lastPlace)} ${JSON.stringify(box)}`);
      await page.getByTestId('sidebar-collapse').click();
      await page.getByTestId('sidebar-collapse').click();
      await scrollSidebarToEnd(last);
      assert.ok((await placeOf(last)).onTop, 'after collapsing and expanding, the last entry is uncovered');
      await last.click();
      await page.waitForURL('**/manage/system/list');
      await page.close();
    });

    test(`menu management reaches the sidebar: a renamed menu shows, a hidden one goes (its page stays open) (${locale})`, async () => {
      const page = await freshPage();
      await signIn(page, server.url, ROOT_NAME, ROOT_PASSWORD, '/manage/system/menu');

      // menu management names the menus as the sidebar does (one name per menu and language)
      const rootSidebar = page.getByTestId('sidebar');
      for (const key of ['auth_site', 'auth_device', 'auth_role', 'auth_customer', 'auth_user', 'auth_application', 'auth_openapi_app', 'auth_black_device']) {
        const name = (await page.getByTestId(`menu-node-${key}`).textContent()).trim();
        assert.equal(await rootSidebar.getByText(name, { exact: true }).count(), 1, `menu management's "${name}" (${key}) is the sidebar's name`);
      }

      // rename Sites as root, in the menu screen
      await page.getByTestId('menu-node-auth_site').click();
      await page.getByTestId('menu-edit').click();
      await page.getByTestId('menu-form-name-en').fill(L.rename.en);
      if (L.rename.zh) await page.getByTestId('menu-form-name-zh').fill(L.rename.zh);
      await page.getByTestId('menu-form-save').click();
      await page.getByTestId('menu-form').waitFor({ state: 'hidden' });
      // root's own sidebar follows at once
      await rootSidebar.getByText(L.renamed, { exact: true }).waitFor();

      // hide Devices
      await page.getByTestId('menu-node-auth_device').click();
      await page.getByTestId('menu-edit').click();
      await page.getByTestId('menu-form-hidden').check();
      await page.getByTestId('menu-form-save').click();
      await page.getByTestId('menu-form').waitFor({ state: 'hidden' });
      await page.getByTestId('menu-hidden-auth_device').waitFor();
      await page.close();

      await root.createUser('park_viewer', 'Park#View123', ['auth_site', 'auth_site_list', 'auth_device', 'auth_device_list', 'auth_my']);
      await (await new Api(server.url).login('park_viewer', 'Park#View123')).acceptPrivacy();
      const user = await freshPage();
      await signIn(user, server.url, 'park_viewer', 'Park#View123');
      const sidebar = user.getByTestId('sidebar');
      await sidebar.getByText(L.renamed, { exact: true }).waitFor();
      assert.equal(await sidebar.getByText(L.sites, { exact: true }).count(), 0, 'the old name is gone');
      if (L.notShown) assert.equal(await sidebar.getByText(L.notShown, { exact: true }).count(), 0, 'the other language\'s name is not shown');
      assert.equal(await sidebar.getByText(L.devices, { exact: true }).count(), 0, 'the hidden menu is not in the sidebar');
      // hiding is not a refusal: the route guard checks keys, the page still opens
      await user.goto(`${server.url}/manage/device/list`);
      await user.waitForURL('**/manage/device/list');
      await sidebar.getByText(L.renamed, { exact: true }).waitFor();
      assert.equal(await user.getByTestId('page-noauth').count(), 0);
      await sidebar.getByText(L.renamed, { exact: true }).click();
      await user.waitForURL('**/manage/site/list');
      await user.close();
    });

    test(`the privacy modal shows its title once, over the console (${locale})`, async () => {
      await root.createUser('new_reader', 'New#Read1234', ['auth_site', 'auth_site_list', 'auth_my']);
      const page = await freshPage();
      await signIn(page, server.url, 'new_reader', 'New#Read1234');
      const modal = page.getByTestId('privacy-modal');
      await modal.waitFor();
      assert.equal(await modal.getByText(L.privacy, { exact: true }).count(), 1);
      assert.equal(await page.getByTestId('privacy-title').innerText(), L.privacy);
      // the console is behind it, not a blank page
      await page.getByTestId('sidebar').getByRole('menuitem').first().waitFor();
      await page.getByTestId('user-menu').waitFor();
      await page.close();
    });
  });
}
