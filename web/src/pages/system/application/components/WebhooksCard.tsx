/**
 * The Webhooks card of an application's detail page (docs/webhooks.md): its subscriptions (URL,
 * events, enabled), add/edit in a drawer, delete. Editing needs auth_application_edit; the
 * server checks the URL's destination and the limit of five.
 */
import { Badge, Button, Card, Checkbox, Form, Input, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import FormDrawer, { useDrawer } from '../../../../components/FormDrawer';
import { useCan } from '../../../../components/access';
import { useActions } from '../../../../hooks/useActions';
import { deleteWebhooks, listWebhooks, MAX_WEBHOOKS, saveWebhook, WEBHOOK_EVENTS, webhookKeys, type Webhook } from '../../../../services/webhook';
import { formatTime } from '../../../../utils/time';
import QueryTable from '../../../../components/QueryTable';

interface FormValues {
  url: string;
  events: string[];
  enabled: boolean;
}


export default function WebhooksCard({ appId }: { appId: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const canEdit = can('auth_application_edit');
  const { run, confirm } = useActions();
  const drawer = useDrawer<Webhook>();
  const q = useQuery({ queryKey: webhookKeys.list(appId), queryFn: () => listWebhooks(appId) });
  const hooks = q.data ?? [];
  const save = (v: FormValues) =>
    run(() => saveWebhook({ appId, id: drawer.row?.id ?? 0, url: v.url, events: v.events, enabled: v.enabled }), {
      success: t('com_msg_save_success'),
      invalidate: [webhookKeys.lists],
    });
  const remove = (w: Webhook) =>
    confirm(() => deleteWebhooks(appId, [w.id]), {
      title: t('app.webhook.confirmDelete', { url: w.url }),
      content: t('app.webhook.confirmDeleteContent'),
      danger: true,
      invalidate: [webhookKeys.lists, webhookKeys.allDeliveries],
    });
  const columns: ColumnsType<Webhook> = [
    {
      title: t('app.webhook.url'),
      dataIndex: 'url',
      key: 'url',
      render: (v: string) => (
        <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
          {v}
        </Typography.Text>
      ),
    },
    {
      title: t('app.webhook.events'),
      dataIndex: 'events',
      key: 'events',
      render: (v: string[]) => v.map((e) => <Tag key={e}>{t(`app.webhook.event.${e}`)}</Tag>),
    },
    {
      title: t('app.status'),
      dataIndex: 'enabled',
      key: 'enabled',
      width: 110,
      render: (v: boolean) => <Badge status={v ? 'success' : 'default'} text={t(v ? 'app.status.1' : 'app.status.0')} />,
    },
    { title: t('app.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', width: 170, render: (v: number) => formatTime(v) },
  ];
  if (canEdit) {
    columns.push({
      title: t('com_actions'),
      key: 'actions',
      width: 120,
      render: (_: unknown, w) => (
        <Space>
          <a onClick={() => drawer.edit(w)} data-testid={`webhook-edit-${w.id}`}>
            {t('com_edit')}
          </a>
          <a onClick={() => remove(w)} data-testid={`webhook-delete-${w.id}`}>
            {t('com_delete')}
          </a>
        </Space>
      ),
    });
  }
  const initial: Partial<FormValues> = drawer.row?.id
    ? { url: drawer.row.url, events: drawer.row.events, enabled: drawer.row.enabled }
    : { url: '', events: ['device.status'], enabled: true };
  return (
    <Card
      title={t('app.webhook.title')}
      style={{ marginTop: 16 }}
      data-testid="webhooks-card"
      extra={
        canEdit && (
          <Button type="primary" onClick={drawer.add} disabled={hooks.length >= MAX_WEBHOOKS} data-testid="webhook-add">
            {t('app.webhook.add')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('app.webhook.hint', { max: MAX_WEBHOOKS })}</Typography.Paragraph>
      <QueryTable<Webhook> query={q} size="small" rowKey="id" dataSource={hooks} columns={columns} pagination={false} data-testid="webhook-list" />
      <FormDrawer<FormValues>
        open={drawer.open}
        title={drawer.row?.id ? t('app.webhook.edit') : t('app.webhook.add')}
        initialValues={initial}
        onClose={drawer.close}
        onSubmit={save}
        testId="webhook-form"
      >
        <Form.Item name="url" label={t('app.webhook.url')} extra={t('app.webhook.urlHint')} rules={[{ required: true, message: t('com_value_required') }]}>
          <Input placeholder="https://example.com/chargeops/webhook" maxLength={1000} data-testid="webhook-url" />
        </Form.Item>
        <Form.Item name="events" label={t('app.webhook.events')} rules={[{ required: true, type: 'array', min: 1, message: t('app.webhook.eventsRequired') }]}>
          <Checkbox.Group data-testid="webhook-events">
            <Space direction="vertical">
              {WEBHOOK_EVENTS.map((e) => (
                <Checkbox key={e} value={e}>
                  {t(`app.webhook.event.${e}`)} <Typography.Text type="secondary">({e})</Typography.Text>
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="enabled" label={t('app.status')} valuePropName="checked">
          <Switch checkedChildren={t('app.status.1')} unCheckedChildren={t('app.status.0')} data-testid="webhook-enabled" />
        </Form.Item>
      </FormDrawer>
    </Card>
  );
}
