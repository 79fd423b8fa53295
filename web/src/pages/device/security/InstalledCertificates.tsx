/**
 * The card "Certificates on the charger" of a device's Security tab (docs/security-profiles.md,
 * "Certificates on the charger"): the roots the charger holds as it last listed them (type,
 * subject when chargeops installed it, serial, hash data), and, for users holding both
 * auth_device_edit and auth_device_certificate, reading them from the charger (control type 23
 * for each type in turn), installing a root (22) and deleting one (24). Each command is
 * followed until the charger answers (useCommands); a refusal (e.g. err.certificate_not_allowed,
 * the WEB/SSH rule) shows the server's message.
 */
import { useState } from 'react';
import { App, Button, Card, Empty, Form, Input, Modal, Select, Space, Table, Tag, Typography, Upload, type ButtonProps } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { CommandResults } from '../../../components/fleet';
import { emptyTextOf } from '../../../components/TableState';
import { useCommands } from '../../../hooks/useCommands';
import { CTL, RESULT } from '../../../services/fleet';
import { installedKeys, listInstalledCertificates, type InstalledCertificate } from '../../../services/installedCertificates';
import { registerTexts } from '../../../locales/domains';
import { certificateTexts } from '../../../locales/domains/certificates';
import { formatTime } from '../../../utils/time';
import { CERTIFICATE_TYPES, pemProblem, shortHash, type CertificateType } from './installed';

registerTexts(certificateTexts);

interface InstallValues {
  certificateType: CertificateType;
  certificate: string;
}

function Hash({ value, testId }: { value: string; testId?: string }) {
  return (
    <Typography.Text code copyable={{ text: value }} data-testid={testId} translate="no" title={value}>
      {shortHash(value)}
    </Typography.Text>
  );
}

export default function InstalledCertificates({ device }: { device: { id: number; sn: string } }) {
  const { t } = useTranslation();
  const can = useCan();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const cmds = useCommands();
  const [reading, setReading] = useState(false);
  const [installing, setInstalling] = useState(false);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<InstallValues>();
  const editable = can(['auth_device_edit', 'auth_device_certificate'], 'all');
  const q = useQuery({ queryKey: installedKeys.list(device.id), queryFn: () => listInstalledCertificates(device.id) });
  const refresh = () => qc.invalidateQueries({ queryKey: installedKeys.list(device.id) });
  const succeeded = (states: { result?: number }[] | null) => !!states?.length && states.every((s) => s.result === RESULT.success);

  // one type after the other: a device takes one command at a time
  const read = async () => {
    setReading(true);
    try {
      let ok = true;
      for (const certificateType of CERTIFICATE_TYPES) {
        ok = succeeded(await cmds.send([device], CTL.getCertificateIds, { certificateType }));
        if (!ok) break;
      }
      if (ok) void message.success(t('device.installed.readDone'));
    } finally {
      setReading(false);
      await refresh();
    }
  };

  const install = async () => {
    const v = await form.validateFields();
    setInstalling(true);
    try {
      const states = await cmds.send([device], CTL.installCertificate, { certificateType: v.certificateType, certificate: v.certificate });
      if (succeeded(states)) setOpen(false);
    } finally {
      setInstalling(false);
      await refresh();
    }
  };

  const remove = (c: InstalledCertificate) =>
    modal.confirm({
      title: t('device.installed.confirmDelete', { sn: device.sn }),
      content: (
        <Space direction="vertical">
          <span>{c.subject || `${t('device.installed.serial')} ${c.certificateHashData.serialNumber}`}</span>
          <span>{t('device.installed.deleteHint')}</span>
        </Space>
      ),
      okText: t('device.installed.delete'),
      cancelText: t('com_cancel'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: async () => {
        const states = await cmds.send([device], CTL.deleteCertificate, { certificateHashData: c.certificateHashData });
        if (succeeded(states)) void message.success(t('device.installed.deleted'));
        await refresh();
      },
    });

  const pickFile = (file: File) => {
    file
      .text()
      .then((text) => form.setFieldsValue({ certificate: text }))
      .then(() => form.validateFields(['certificate']))
      .catch(() => void message.error(t('device.installed.fileUnreadable')));
    return false; // read here, never uploaded
  };

  return (
    <Card
      title={t('device.installed.title')}
      style={{ marginTop: 16 }}
      data-testid="installed-certificates-card"
      extra={
        editable && (
          <Space>
            <Button onClick={() => void read()} loading={reading} disabled={installing} data-testid="installed-read">
              {t('device.installed.read')}
            </Button>
            <Button type="primary" onClick={() => setOpen(true)} disabled={reading} data-testid="installed-install">
              {t('device.installed.install')}
            </Button>
          </Space>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('device.installed.hint')}</Typography.Paragraph>
      <Table<InstalledCertificate>
        size="small"
        rowKey="id"
        loading={q.isPending}
        dataSource={q.data ?? []}
        pagination={false}
        data-testid="installed-certificates"
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: emptyTextOf(q, <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('device.installed.none')} />) }}
        columns={[
          {
            title: t('device.installed.type'),
            dataIndex: 'certificateType',
            render: (v: string) => <Tag>{t(`device.installed.type.${v}`, { defaultValue: v })}</Tag>,
          },
          {
            title: t('device.installed.subject'),
            dataIndex: 'subject',
            render: (v: string, c) =>
              v ? (
                <Space direction="vertical" size={0}>
                  <span data-testid="installed-subject">{v}</span>
                  {c.notAfter > 0 && <Typography.Text type="secondary">{t('device.installed.notAfter', { time: formatTime(c.notAfter) })}</Typography.Text>}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('device.installed.subjectUnknown')}</Typography.Text>
              ),
          },
          {
            title: t('device.installed.serial'),
            key: 'serial',
            render: (_: unknown, c) => <Hash value={c.certificateHashData.serialNumber} testId="installed-serial" />,
          },
          {
            title: t('device.installed.issuerHashes'),
            key: 'hashes',
            render: (_: unknown, c) => (
              <Space direction="vertical" size={0}>
                <span>
                  <Typography.Text type="secondary">{t('device.installed.issuerNameHash')} </Typography.Text>
                  <Hash value={c.certificateHashData.issuerNameHash} />
                </span>
                <span>
                  <Typography.Text type="secondary">{t('device.installed.issuerKeyHash')} </Typography.Text>
                  <Hash value={c.certificateHashData.issuerKeyHash} />
                </span>
                <Typography.Text type="secondary">{c.certificateHashData.hashAlgorithm}</Typography.Text>
              </Space>
            ),
          },
          { title: t('device.installed.updatedAt'), dataIndex: 'updatedAt', render: (v: number) => formatTime(v) },
          ...(editable
            ? [
                {
                  title: t('device.installed.actions'),
                  key: 'actions',
                  render: (_: unknown, c: InstalledCertificate) => (
                    <Button size="small" danger disabled={reading || installing} onClick={() => remove(c)} data-testid="installed-delete">
                      {t('device.installed.delete')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {!open && (
        <div style={{ marginTop: 12 }}>
          <CommandResults states={cmds.states} sending={cmds.sending} />
        </div>
      )}
      <Modal
        open={open}
        title={t('device.installed.installTitle', { sn: device.sn })}
        okText={t('device.installed.send')}
        cancelText={t('com_cancel')}
        onOk={() => void install().catch(() => undefined)}
        onCancel={() => setOpen(false)}
        confirmLoading={installing}
        okButtonProps={{ 'data-testid': 'installed-send' } as ButtonProps}
        destroyOnHidden
        width={640}
      >
        <Typography.Paragraph type="secondary">{t('device.installed.installHint')}</Typography.Paragraph>
        <Form<InstallValues> form={form} layout="vertical" initialValues={{ certificateType: CERTIFICATE_TYPES[0] }} preserve={false}>
          <Form.Item name="certificateType" label={t('device.installed.type')} rules={[{ required: true }]}>
            <Select
              data-testid="installed-type"
              options={CERTIFICATE_TYPES.map((v) => ({ value: v, label: t(`device.installed.type.${v}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="certificate"
            label={t('device.installed.certificate')}
            rules={[
              {
                validator: (_, v: string | undefined) => {
                  const p = pemProblem(v ?? '');
                  return p ? Promise.reject(new Error(t(`device.installed.pem.${p}`))) : Promise.resolve();
                },
              },
            ]}
          >
            <Input.TextArea rows={10} spellCheck={false} placeholder="-----BEGIN CERTIFICATE-----" style={{ fontFamily: 'monospace' }} data-testid="installed-pem" />
          </Form.Item>
          <Upload accept=".pem,.crt,.cer" showUploadList={false} beforeUpload={pickFile} maxCount={1}>
            <Button data-testid="installed-file">{t('device.installed.pickFile')}</Button>
          </Upload>
        </Form>
        {open && (
          <div style={{ marginTop: 12 }}>
            <CommandResults states={cmds.states} sending={cmds.sending} />
          </div>
        )}
      </Modal>
    </Card>
  );
}
