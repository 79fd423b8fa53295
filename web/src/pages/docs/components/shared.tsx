/** Small pieces the docs pages share (docs/docs-wiki.md). */
import { Avatar, Tag } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../../../locales/domains';
import { docsTexts } from '../../../locales/domains/docs';
import { RequestError } from '../../../services/request';
import { docsKeys, listCategories, DOC_LEVELS, DOC_TYPES } from '../../../services/docs';

// Every docs page imports this module: its texts are in i18next before the page renders.
registerTexts(docsTexts);

const TYPE_COLORS: Record<number, string> = { 100: 'red', 101: 'blue', 102: 'green' };

export function DocTypeTag({ type }: { type: number }) {
  const { t } = useTranslation();
  return <Tag color={TYPE_COLORS[type]}>{t(`docs.type.${type}`)}</Tag>;
}

export function DocStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Tag color={status === 1 ? 'success' : 'default'}>{t(`docs.status.${status}`)}</Tag>;
}

export function DocIcon({ url, size = 40 }: { url?: string; size?: number }) {
  return url ? <Avatar shape="square" size={size} src={url} /> : <Avatar shape="square" size={size} icon={<FileTextOutlined />} />;
}

export function useTypeOptions() {
  const { t } = useTranslation();
  return DOC_TYPES.map((v) => ({ value: v, label: t(`docs.type.${v}`) }));
}

export function useLevelOptions() {
  const { t } = useTranslation();
  return DOC_LEVELS.map((v) => ({ value: v, label: t('docs.level', { level: v }) }));
}

export function useStatusOptions() {
  const { t } = useTranslation();
  return [1, 0].map((v) => ({ value: v, label: t(`docs.status.${v}`) }));
}

export function useCategories() {
  return useQuery({ queryKey: docsKeys.categories(), queryFn: listCategories, staleTime: 10_000 });
}

export function useCategoryOptions() {
  const q = useCategories();
  return (q.data ?? []).map((c) => ({ value: c.id, label: c.name }));
}

/** A document the server answers not found or refused: above the reader's level, another
 * customer's, disabled, or gone. The server does not say which (docs/docs-wiki.md, "Levels"). */
export function isHidden(e: unknown): boolean {
  return e instanceof RequestError && (e.code === 10002 || e.code === 20013);
}
