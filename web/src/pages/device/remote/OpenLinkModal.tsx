/** Open link: the kind (WEB or SSH, only those the model supports and the role allows) and the validity in minutes. */
import { Form, InputNumber, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { LINK_MINUTES, type LinkKind } from '../../../services/remote';

export interface OpenLinkValues {
  kind: LinkKind;
  minutes: number;
}

export default function OpenLinkModal({
  sn,
  kinds,
  onOpen,
  onClose,
}: {
  sn: string;
  kinds: LinkKind[];
  onOpen(v: OpenLinkValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<OpenLinkValues>();
  const submit = () =>
    void form.validateFields().then(
      (v) => onOpen({ kind: v.kind, minutes: Number(v.minutes) }),
      () => undefined, // the form shows what is wrong
    );
  return (
    <Modal
      open
      title={t('rlink.openTitle', { sn })}
      okText={t('rlink.open')}
      cancelText={t('com_cancel')}
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'link-open-ok' } as { danger?: boolean }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ kind: kinds[0], minutes: LINK_MINUTES.default }} data-testid="link-open-form">
        <Form.Item name="kind" label={t('rlink.kind')} rules={[{ required: true }]}>
          <Radio.Group
            optionType="button"
            options={(['web', 'ssh'] as const).map((k) => ({ value: k, label: t(`rlink.kind.${k}`), disabled: !kinds.includes(k) }))}
            data-testid="link-kind"
          />
        </Form.Item>
        <Form.Item
          name="minutes"
          label={t('rlink.validity')}
          extra={t('rlink.validityHint', { min: LINK_MINUTES.min, max: LINK_MINUTES.max })}
          rules={[{ required: true, type: 'integer', min: LINK_MINUTES.min, max: LINK_MINUTES.max, message: t('rlink.validityHint', { min: LINK_MINUTES.min, max: LINK_MINUTES.max }) }]}
        >
          <InputNumber min={LINK_MINUTES.min} max={LINK_MINUTES.max} precision={0} addonAfter={t('rlink.minutes')} data-testid="link-minutes" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
