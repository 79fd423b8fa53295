/**
 * logs/protocol — every OCPP frame in and out and every open/close (POST logs/protocol/list).
 * SN, communication type and time filters; order fields of docs/gateway.md#protocol-logs-and-backpressure (default = newest first,
 * SN, communication type) as column sorters; all in the URL. A row expands to its frame as
 * indented JSON. The device page embeds the same table for one SN (state kept in memory).
 * Pages reached one after another are asked for by the server's cursor (keyset, issue 9).
 */
import { Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { ProtocolLogTable } from '../../../components/ProtocolLogTable';

export default function ProtocolLogs() {
  const { t } = useTranslation();
  const can = useCan();
  return (
    <div>
      <Typography.Paragraph type="secondary">
        {t('protocol.hint')} {can('auth_black_device') && <Link to="/manage/system/list?tab=refusals">{t('blacklist.tab.refusals')}</Link>}
      </Typography.Paragraph>
      <ProtocolLogTable />
    </div>
  );
}
