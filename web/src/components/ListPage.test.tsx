import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import i18n, { loadLocale } from '../i18n';
import ListPage, { type ListResult } from './ListPage';
import { useListState } from '../hooks/useListState';
import { RequestError } from '../services/request';
import { columnsStorageKey, isHiddenBy, readHidden, toggledSettings } from './ColumnSettings';

interface Row {
  id: number;
  name: string;
}
const SPEC = { keyword: 'string' } as const;

function Page({ fetcher, columnsId }: { fetcher(q: Record<string, unknown>): Promise<ListResult<Row>>; columnsId?: string }) {
  const list = useListState(SPEC, '', true);
  return (
    <ListPage<Row>
      list={list}
      queryKey={['test/list']}
      fetcher={fetcher}
      columns={[
        { title: 'SN', dataIndex: 'id', key: 'id', fixed: 'left' },
        { title: 'Name', dataIndex: 'name', key: 'name' },
        { title: 'Site', dataIndex: 'site', key: 'site' },
      ]}
      testId="the-list"
      columnsId={columnsId}
    />
  );
}

function show(fetcher: (q: Record<string, unknown>) => Promise<ListResult<Row>>, columnsId?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <App>
          <Page fetcher={fetcher} columnsId={columnsId} />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  await i18n.changeLanguage('en-US');
});

describe('a list whose request fails or is still loading', () => {
  it('TestListErrorState: a failed request shows a localised error with Retry, not "No data"; Retry asks again', async () => {
    const fetcher = vi
      .fn<(q: Record<string, unknown>) => Promise<ListResult<Row>>>()
      .mockRejectedValueOnce(new RequestError('http', 'System error', { status: 500 }))
      .mockResolvedValueOnce({ total: 1, list: [{ id: 1, name: 'CP-1' }] });
    show(fetcher);
    await waitFor(() => expect(screen.getByTestId('list-error')).toBeTruthy());
    expect(screen.getByText('Could not load the list')).toBeTruthy();
    expect(screen.getByTestId('list-error-reason').textContent).toBe('System error');
    expect(screen.queryByText('No data')).toBeNull();
    fireEvent.click(screen.getByTestId('list-retry'));
    await waitFor(() => expect(screen.getByText('CP-1')).toBeTruthy());
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('list-error')).toBeNull();
  });

  it('says so in zh-CN too', async () => {
    await loadLocale('zh-CN');
    await i18n.changeLanguage('zh-CN');
    show(() => Promise.reject(new RequestError('network', '网络异常')));
    await waitFor(() => expect(screen.getByText('列表加载失败')).toBeTruthy());
    expect(screen.getByTestId('list-retry').textContent?.replace(/\s/g, '')).toBe('重试');
    expect(screen.queryByText('暂无数据')).toBeNull();
  });

  it('TestListLoadingState: while loading, nothing but the spinner (no "No data" under it)', async () => {
    let resolve: (r: ListResult<Row>) => void = () => {};
    show(() => new Promise((r) => (resolve = r)));
    await waitFor(() => expect(screen.getByTestId('list-loading')).toBeTruthy());
    expect(screen.queryByText('No data')).toBeNull();
    resolve({ total: 0, list: [] });
    await waitFor(() => expect(screen.queryByTestId('list-loading')).toBeNull());
    expect(screen.getByTestId('the-list').querySelector('.ant-empty-description')?.textContent).toBe('No data');
  });
});

describe('column settings', () => {
  const headers = () => [...document.querySelectorAll('[data-testid="the-list"] thead th')].map((th) => th.textContent).filter(Boolean);

  it('TestColumnSettingsPersist: a hidden column stays hidden for that user and list after a reload; fixed columns cannot be hidden', async () => {
    localStorage.clear();
    const rows = () => Promise.resolve({ total: 1, list: [{ id: 1, name: 'CP-1' }] });
    show(rows, 'cols-test');
    await waitFor(() => expect(screen.getByText('CP-1')).toBeTruthy());
    expect(headers()).toEqual(['SN', 'Name', 'Site']);
    fireEvent.click(screen.getByTestId('list-columns'));
    await waitFor(() => expect(screen.getByTestId('column-toggle-site')).toBeTruthy());
    expect(screen.queryByTestId('column-toggle-id')).toBeNull(); // fixed: always shown
    fireEvent.click(screen.getByTestId('column-toggle-site'));
    await waitFor(() => expect(headers()).toEqual(['SN', 'Name']));
    expect(readHidden(columnsStorageKey(undefined, 'cols-test'))).toEqual(['site']);
    cleanup();
    show(rows, 'cols-test');
    await waitFor(() => expect(screen.getByText('CP-1')).toBeTruthy());
    expect(headers()).toEqual(['SN', 'Name']);
    // another list keeps its own settings
    cleanup();
    show(rows, 'other-list');
    await waitFor(() => expect(screen.getByText('CP-1')).toBeTruthy());
    expect(headers()).toEqual(['SN', 'Name', 'Site']);
  });

  it('a column hidden by default shows once the user asks for it, and stays so', () => {
    const cat = { key: 'category', title: 'Category', hidden: true };
    const site = { key: 'site', title: 'Site' };
    expect(isHiddenBy([], cat)).toBe(true);
    expect(isHiddenBy([], site)).toBe(false);
    const shown = toggledSettings([], 'category', true, true);
    expect(shown).toEqual(['+category']);
    expect(isHiddenBy(shown, cat)).toBe(false);
    const both = toggledSettings(shown, 'site', false, false);
    expect(both).toEqual(['+category', 'site']);
    expect(isHiddenBy(both, site)).toBe(true);
    expect(toggledSettings(both, 'category', false, true)).toEqual(['site']);
    expect(toggledSettings(both, 'site', true, false)).toEqual(['+category']);
  });

  it('reads damaged settings as none', () => {
    localStorage.setItem('k', '{not json');
    expect(readHidden('k')).toEqual([]);
    localStorage.setItem('k', '[1,"a"]');
    expect(readHidden('k')).toEqual(['a']);
  });
});
