import { describe, expect, it } from 'vitest';
import { documentTitle, setSubject, subjectOf, tabLabel } from './title';
import { addTab, homeTab } from './history';

describe('where am I (issue 30 item 15)', () => {
  it('the browser tab names the object, the page and the app', () => {
    expect(documentTitle('Device detail', 'HK-KB-01-08')).toBe('HK-KB-01-08 · Device detail · ChargeOps');
    expect(documentTitle('Device list')).toBe('Device list · ChargeOps');
    expect(documentTitle('', undefined)).toBe('ChargeOps');
  });

  it('two device details are two history tabs named by their SNs, not "Device detail" twice', () => {
    let tabs = addTab([homeTab], { key: '/manage/device/detail/1', path: '/manage/device/detail/1', name: 'menu.device.detail', subject: 'HK-KB-01-08' });
    tabs = addTab(tabs, { key: '/manage/device/detail/2', path: '/manage/device/detail/2', name: 'menu.device.detail', subject: 'HK-KB-01-09' });
    const labels = tabs.map((t) => tabLabel(t.name === 'menu.home' ? 'Home' : 'Device detail', t.subject));
    expect(labels).toEqual(['Home', 'HK-KB-01-08', 'HK-KB-01-09']);
    // switching the page's own tab (path changes, no subject yet) keeps the object's name
    tabs = addTab(tabs, { key: '/manage/device/detail/1', path: '/manage/device/detail/1/logs', name: 'menu.device.detail' });
    expect(tabLabel('Device detail', tabs[1].subject)).toBe('HK-KB-01-08');
  });

  it('a page names its object by pathname; clearing it forgets it', () => {
    setSubject('/manage/site/detail/3', 'Kowloon Bay');
    expect(subjectOf('/manage/site/detail/3')).toBe('Kowloon Bay');
    setSubject('/manage/site/detail/3', undefined);
    expect(subjectOf('/manage/site/detail/3')).toBeUndefined();
  });
});
