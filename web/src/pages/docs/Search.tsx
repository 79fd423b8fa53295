/**
 * docs/search — full-text search over titles and contents (docs/docs-wiki.md, "Search"): every
 * word must match, Chinese words too; best first; the server marks the matches (<mark>) and
 * escapes everything else, so its title and excerpt are shown as HTML. Query and page in the URL.
 */
import { Card, Empty, Input, List, Select, Space, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { docsKeys, searchDocs } from '../../services/docs';
import { formatTime } from '../../utils/time';
import { DocTypeTag, useTypeOptions } from './components/shared';

export default function DocsSearch() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const typeOptions = useTypeOptions();
  const q = params.get('q') ?? '';
  const page = Number(params.get('page')) || 1;
  const type = Number(params.get('type')) || 0;
  const input = { q, page, pageSize: 20, type };
  const hits = useQuery({ queryKey: docsKeys.search(input), queryFn: () => searchDocs(input), enabled: q.trim() !== '', placeholderData: keepPreviousData });
  const set = (patch: Record<string, string | number | undefined>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || v === '' || v === 0) next.delete(k);
        else next.set(k, String(v));
      }
      return next;
    });
  return (
    <div data-testid="docs-search">
      <PageHeader title={t('menu.docs.search')} back="/manage/docs/home" />
      <Card size="small" style={{ marginBottom: 16 }}>
        <Space wrap>
          <Input.Search
            key={q}
            defaultValue={q}
            allowClear
            enterButton
            placeholder={t('docs.search.placeholder')}
            style={{ width: 420 }}
            onSearch={(v) => set({ q: v.trim(), page: undefined })}
            data-testid="docs-search-input"
          />
          <Select allowClear style={{ width: 180 }} placeholder={t('docs.type')} options={typeOptions} value={type || undefined} onChange={(v?: number) => set({ type: v, page: undefined })} />
        </Space>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {t('docs.search.hint')}
        </Typography.Paragraph>
      </Card>
      {q.trim() === '' ? (
        <Empty description={t('docs.search.empty')} />
      ) : (
        <List
          loading={hits.isFetching}
          dataSource={hits.data?.list ?? []}
          locale={{ emptyText: t('docs.search.none', { q }) }}
          pagination={
            (hits.data?.total ?? 0) > 20 && {
              current: page,
              pageSize: 20,
              total: hits.data?.total ?? 0,
              onChange: (p) => set({ page: p }),
              showSizeChanger: false,
            }
          }
          header={hits.data && <Typography.Text type="secondary">{t('docs.search.total', { count: hits.data.total })}</Typography.Text>}
          renderItem={(h) => (
            <List.Item data-testid="docs-search-hit">
              <List.Item.Meta
                title={
                  <Space>
                    <Link to={`/manage/docs/detail/${h.id}`} data-testid="docs-search-title">
                      {/* escaped by the server but for its <mark> tags */}
                      <span dangerouslySetInnerHTML={{ __html: h.titleHtml }} />
                    </Link>
                    <DocTypeTag type={h.type} />
                  </Space>
                }
                description={
                  <>
                    <div className="docs-snippet" data-testid="docs-search-snippet" dangerouslySetInnerHTML={{ __html: h.snippet }} />
                    <Typography.Text type="secondary">
                      {h.categoryName} · {formatTime(h.updatedAt)}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
