/**
 * The forms of the charging operations: a remote start (token, on a connector or the charger's
 * choice) and a reservation (token, parent token, expiry within the server's 7 days). Each
 * checks what the server checks before anything is sent (internal/fleet/operations.go).
 */
import { DatePicker, Form, Input, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { OPS_LIMITS, reserveExpiryError, validIdTag } from '../../../services/ops';

export interface StartValues {
  idTag: string;
}

export interface ReserveValues {
  idTag: string;
  parentIdTag?: string;
  expiry: Dayjs;
}

function useIdTagRules(required: boolean) {
  const { t } = useTranslation();
  return [
    { required, message: t('com_value_required') },
    { validator: (_: unknown, v?: string) => (!v || validIdTag(v) ? Promise.resolve() : Promise.reject(new Error(t('ops.idTagRule')))) },
  ];
}

/** Remote start: connector 0 means the charger chooses. */
export function StartModal({ sn, connectorId, onClose, onSubmit }: { sn: string; connectorId: number | null; onClose(): void; onSubmit(v: StartValues): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<StartValues>();
  const rules = useIdTagRules(true);
  return (
    <Modal
      open={connectorId !== null}
      title={t('ops.startTitle', { sn })}
      okText={t('ops.start')}
      cancelText={t('com_cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'ops-start-ok' } as Record<string, string>}
      destroyOnHidden
    >
      <p>{connectorId ? t('ops.startOn', { id: connectorId }) : t('ops.startAnyConnector')}</p>
      <Form<StartValues> form={form} layout="vertical" onFinish={onSubmit} preserve={false}>
        <Form.Item name="idTag" label={t('ops.idTag')} extra={t('ops.idTagHint')} rules={rules}>
          <Input maxLength={OPS_LIMITS.idTag} autoFocus data-testid="ops-idtag" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** ReserveNow on a connector: token, optional parent token, expiry in the next 7 days. */
export function ReserveModal({ sn, connectorId, onClose, onSubmit }: { sn: string; connectorId: number | null; onClose(): void; onSubmit(v: ReserveValues): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ReserveValues>();
  const required = useIdTagRules(true);
  const optional = useIdTagRules(false);
  const expiryRule = (_: unknown, v?: Dayjs) => {
    const err = reserveExpiryError(v?.valueOf());
    return err ? Promise.reject(new Error(t(err))) : Promise.resolve();
  };
  return (
    <Modal
      open={connectorId !== null}
      title={t('ops.reserveTitle', { sn, id: connectorId ?? 0 })}
      okText={t('ops.reserve')}
      cancelText={t('com_cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'ops-reserve-ok' } as Record<string, string>}
      destroyOnHidden
    >
      <Form<ReserveValues> form={form} layout="vertical" onFinish={onSubmit} preserve={false} initialValues={{ expiry: dayjs().add(1, 'hour') }}>
        <Form.Item name="idTag" label={t('ops.idTag')} extra={t('ops.idTagHint')} rules={required}>
          <Input maxLength={OPS_LIMITS.idTag} autoFocus data-testid="ops-reserve-idtag" />
        </Form.Item>
        <Form.Item name="parentIdTag" label={t('ops.parentIdTag')} rules={optional}>
          <Input maxLength={OPS_LIMITS.idTag} />
        </Form.Item>
        <Form.Item
          name="expiry"
          label={t('ops.expiry')}
          rules={[{ validator: expiryRule }]}
        >
          <DatePicker showTime disabledDate={(d) => d.isBefore(dayjs().startOf('day')) || d.isAfter(dayjs().add(OPS_LIMITS.reserveDays, 'day'))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
