/** Small display helpers shared by the screens. */
import { Badge, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from '../services/device';
import ObjectImage from './ObjectImage';

export function YesNo({ value }: { value: boolean }) {
  const { t } = useTranslation();
  return value ? <Tag color="green">{t('com_yes')}</Tag> : <Tag>{t('com_no')}</Tag>;
}

export function DeviceStatus({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Badge status={(STATUS_COLORS[status] ?? 'default') as 'default'} text={t(`device.status.${status}`)} data-testid="device-status" />;
}

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  return <Badge status={enabled ? 'success' : 'default'} text={enabled ? t('com_enabled') : t('com_disabled')} />;
}

/** A small stored image (objectKey or URL) in a table cell. */
export function Thumb({ src }: { src?: string }) {
  return <ObjectImage value={src} width={40} height={40} />;
}
