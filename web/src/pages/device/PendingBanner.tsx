/**
 * The device list's banner for new chargers (issue 30 item 14): unknown SNs that tried to
 * connect wait under Device blacklist → Pending devices; the list says how many, with "add"
 * one click away. Only for callers who may add devices and see pending ones (the server's
 * PlatformOnly check decides: a refused or failed call shows no banner).
 */
import { Alert, Button, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../components/access';
import { post } from '../../services/request';
import type { PendingPage } from '../../services/fleet';
import { deviceKeys } from '../../services/device';

/** The SNs named in the banner, each with its own add button; more are on the pending tab. */
export const PENDING_SHOWN = 3;
export const PENDING_TAB_PATH = '/manage/system/list?tab=pending';

export default function PendingBanner() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const allowed = can('auth_device_add') && can('auth_black_device');
  const q = useQuery({
    queryKey: deviceKeys.pendingBanner,
    queryFn: () => post<PendingPage>('/api/auth/sys/dev/pending/list', { page: 1, pageSize: PENDING_SHOWN }, { silent: true }),
    enabled: allowed,
    refetchInterval: 60_000,
    retry: false,
  });
  const total = q.data?.total ?? 0;
  if (!allowed || total === 0) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="pending-banner"
      message={t('pending.banner', { count: total })}
      description={
        <Space wrap>
          {q.data?.list.map((d) => (
            <Button key={d.sn} size="small" type="primary" onClick={() => void navigate(`/manage/device/add/${encodeURIComponent(d.sn)}`)} data-testid={`pending-banner-add-${d.sn}`}>
              {t('pending.bannerAdd', { sn: d.sn })}
            </Button>
          ))}
          <Link to={PENDING_TAB_PATH} data-testid="pending-banner-all">
            {t('pending.bannerAll')}
          </Link>
        </Space>
      }
    />
  );
}
