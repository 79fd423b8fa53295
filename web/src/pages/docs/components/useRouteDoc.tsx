/**
 * The document of the route's :id for the detail and props pages, or the page to show instead:
 * not found for a bad id, the forbidden page for a document the caller may not read (the server
 * answers both the same; docs/docs-wiki.md, "Levels").
 */
import type { ReactNode } from 'react';
import { Card } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NotFoundResult } from '../../../components/PageHeader';
import Forbidden from '../../../components/Forbidden';
import { docDetail, docsKeys, type DocDetail } from '../../../services/docs';
import { isHidden } from './shared';

export function useRouteDoc(): { id: number; doc: DocDetail; instead?: undefined } | { id: number; doc?: undefined; instead: ReactNode } {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const q = useQuery({ queryKey: docsKeys.detail(id), queryFn: () => docDetail(id), enabled: id > 0, retry: false });
  if (!(id > 0)) return { id, instead: <NotFoundResult subTitle={t('docs.notFound')} /> };
  if (q.isError) return { id, instead: isHidden(q.error) ? <Forbidden /> : <NotFoundResult subTitle={t('docs.notFound')} /> };
  if (!q.data) return { id, instead: <Card loading /> };
  return { id, doc: q.data };
}
