/**
 * DataTransfer for engineers (control type 16): vendor, message and data as the charger's
 * vendor documents them; the charger's answer (status and data) is shown once it arrived.
 */
import { useState } from 'react';
import { Button, Card, Descriptions, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { CommandResults } from '../../../components/fleet';
import { useCommands } from '../../../hooks/useCommands';
import { CTL, getCommand } from '../../../services/fleet';
import { OPS_LIMITS } from '../../../services/ops';

interface Values {
  vendorId: string;
  messageId?: string;
  data?: string;
}

/** The status and data of a DataTransfer answer as stored on the command. */
export function transferAnswer(raw: string | undefined): { status: string; data: string } | null {
  if (!raw) return null;
  try {
    const a = JSON.parse(raw) as { status?: string; data?: unknown };
    return { status: a.status ?? '', data: a.data === undefined ? '' : typeof a.data === 'string' ? a.data : JSON.stringify(a.data) };
  } catch {
    return null;
  }
}

export default function DataTransferCard({ device }: { device: { id: number; sn: string } }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const cmds = useCommands();
  const [answer, setAnswer] = useState<{ status: string; data: string } | null>(null);
  const submit = (v: Values) => {
    setAnswer(null);
    void cmds
      .send([device], CTL.dataTransfer, { vendorId: v.vendorId.trim(), messageId: v.messageId?.trim() || undefined, data: v.data || undefined })
      .then(async (states) => {
        const id = states?.[0]?.id;
        if (id) setAnswer(transferAnswer((await getCommand(id)).answer));
      });
  };
  const req = { required: true, message: t('com_value_required') };
  return (
    <Card title={t('ops.dataTransfer')} size="small" data-testid="ops-data-transfer">
      <Form<Values> form={form} layout="inline" onFinish={submit}>
        <Form.Item name="vendorId" label={t('ops.vendorId')} rules={[req, { max: OPS_LIMITS.vendorId }]}>
          <Input style={{ width: 200 }} data-testid="ops-vendor" />
        </Form.Item>
        <Form.Item name="messageId" label={t('ops.messageId')} rules={[{ max: OPS_LIMITS.messageId }]}>
          <Input style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="data" label={t('ops.data')} rules={[{ max: OPS_LIMITS.data }]}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} style={{ width: 280 }} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={cmds.sending} data-testid="ops-transfer-send">
            {t('ops.send')}
          </Button>
        </Form.Item>
      </Form>
      <div style={{ marginTop: 12 }}>
        <CommandResults states={cmds.states} sending={cmds.sending} />
      </div>
      {answer && (
        <Descriptions size="small" column={1} title={t('ops.answer')} style={{ marginTop: 12 }} data-testid="ops-transfer-answer">
          <Descriptions.Item label={t('ops.answerStatus')}>{answer.status || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('ops.answerData')}>
            <code>{answer.data || '-'}</code>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
