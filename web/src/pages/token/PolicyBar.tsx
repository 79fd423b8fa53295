/** A customer's policy for unknown tokens and its list version, for the customer the list filters on (or the caller's only one). */
import { Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../components/access';
import { useActions } from '../../hooks/useActions';
import { getPolicy, POLICIES, setPolicy, tokenKeys } from '../../services/token';

export default function PolicyBar({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const { run } = useActions();
  const policy = useQuery({ queryKey: tokenKeys.policy(customerId), queryFn: () => getPolicy(customerId) });
  if (!policy.data) return null;
  return (
    <Space data-testid="token-policy">
      <Tooltip title={t('token.policyHint')}>
        <Typography.Text>{t('token.policy')}:</Typography.Text>
      </Tooltip>
      <Select
        style={{ width: 200 }}
        value={policy.data.unknown}
        disabled={!can('auth_token_edit')}
        options={POLICIES.map((p) => ({ value: p, label: t(`token.policy.${p}`) }))}
        onChange={(v: number) => void run(() => setPolicy(customerId, v), { invalidate: [tokenKeys.policies] })}
        data-testid="token-policy-select"
      />
      <Tag>{t('token.listVersion', { version: policy.data.listVersion })}</Tag>
    </Space>
  );
}
