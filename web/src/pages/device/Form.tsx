/** device/add/:SN? (SN pre-filled) and device/update/:id (SN read-only): every device field of docs/decisions.md#organisation. */
import { useEffect, useState } from 'react';
import { Card, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../components/PageHeader';
import { useActions } from '../../hooks/useActions';
import { useCustomerOptions, useModelOptions, useSiteOptions } from '../../hooks/useOptions';
import { addDevice, getDevice, updateDevice, type DeviceInput, deviceKeys } from '../../services/device';
import { isValidSN } from '../../utils/validators';
import { FormPageActions } from '../../components/FormDrawer';
import ImagesField from '../../components/ImagesField';

type Values = Omit<DeviceInput, 'installDate' | 'arrivalDate' | 'images'> & {
  customerId?: number;
  installDate?: Dayjs | null;
  arrivalDate?: Dayjs | null;
  images?: string[];
};

/** A device keeps at most 10 images (internal/device/device.go). */
const MAX_IMAGES = 10;

const day = (s: string) => (s ? dayjs(s) : null);

export default function DeviceForm() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id ?? 0);
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const { run } = useActions();
  const customerId = Form.useWatch('customerId', form);
  const customers = useCustomerOptions();
  const sites = useSiteOptions(customerId);
  const models = useModelOptions();
  const device = useQuery({ queryKey: deviceKeys.detail(id), queryFn: () => getDevice(id), enabled: id > 0, retry: false });

  useEffect(() => {
    const d = device.data;
    if (d)
      form.setFieldsValue({
        ...d,
        installDate: day(d.installDate),
        arrivalDate: day(d.arrivalDate),
        images: d.images,
      });
  }, [device.data, form]);
  useEffect(() => {
    if (!id && params.SN) form.setFieldsValue({ sn: params.SN });
  }, [id, params.SN, form]);

  if (id > 0 && device.isError) return <NotFoundResult />;

  const submit = async (v: Values) => {
    setBusy(true);
    const body: DeviceInput = {
      sn: v.sn.trim(),
      name: v.name.trim(),
      modelId: v.modelId,
      siteId: v.siteId,
      softwareVersion: v.softwareVersion ?? '',
      installDate: v.installDate ? v.installDate.format('YYYY-MM-DD') : '',
      arrivalDate: v.arrivalDate ? v.arrivalDate.format('YYYY-MM-DD') : '',
      maintenanceCycle: v.maintenanceCycle ?? 0,
      images: v.images ?? [],
    };
    let newId = id;
    const ok = await run(
      async () => {
        if (id) await updateDevice({ ...body, id });
        else newId = (await addDevice(body)).id;
      },
      { success: t('com_msg_save_success'), invalidate: [deviceKeys.lists, deviceKeys.details, deviceKeys.counts] },
    );
    setBusy(false);
    if (ok) void navigate(id ? `/manage/device/detail/${newId}` : '/manage/device/list');
  };
  const req = { required: true, message: t('com_value_required') };
  return (
    <div data-testid="device-form">
      <PageHeader back title={id ? t('menu.device.update') : t('menu.device.add')} />
      <Card loading={id > 0 && device.isPending}>
        <Form<Values> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 640 }} initialValues={{ maintenanceCycle: 180 }}>
          <Form.Item
            name="sn"
            label={t('device.sn')}
            extra={t('device.snRule')}
            rules={[req, { validator: (_, v: string) => (!v || isValidSN(v) ? Promise.resolve() : Promise.reject(new Error(t('device.snRule')))) }]}
          >
            <Input disabled={id > 0} data-testid="device-sn" />
          </Form.Item>
          <Form.Item name="name" label={t('device.name')} rules={[{ ...req, whitespace: true }, { max: 64 }]}>
            <Input data-testid="device-name" />
          </Form.Item>
          <Form.Item name="modelId" label={t('device.model')} rules={[req]}>
            <Select showSearch optionFilterProp="label" options={models} data-testid="device-model" />
          </Form.Item>
          <Form.Item name="customerId" label={t('device.customer')}>
            <Select allowClear showSearch optionFilterProp="label" options={customers} onChange={() => form.setFieldValue('siteId', undefined)} data-testid="device-customer" />
          </Form.Item>
          <Form.Item name="siteId" label={t('device.site')} rules={[req]}>
            <Select showSearch optionFilterProp="label" options={sites} data-testid="device-site" />
          </Form.Item>
          <Form.Item name="softwareVersion" label={t('device.softwareVersion')} rules={[{ max: 64 }]}>
            <Input />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item name="installDate" label={t('device.installDate')}>
              <DatePicker format="YYYY-MM-DD" />
            </Form.Item>
            <Form.Item name="arrivalDate" label={t('device.arrivalDate')}>
              <DatePicker format="YYYY-MM-DD" />
            </Form.Item>
            <Form.Item name="maintenanceCycle" label={t('device.maintenanceCycle')} rules={[{ type: 'number', min: 0, max: 3650 }]}>
              <InputNumber min={0} max={3650} precision={0} addonAfter={t('com_days')} />
            </Form.Item>
          </Space>
          <Form.Item name="images" label={t('device.images')}>
            <ImagesField maxCount={MAX_IMAGES} testId="device-images" />
          </Form.Item>
          <FormPageActions busy={busy} testId="device-save" />
        </Form>
      </Card>
    </div>
  );
}
