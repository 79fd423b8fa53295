import { Checkbox, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import ImageField from '../../../../components/ImageField';

/** The form fields of a customer (the list's and the detail's drawer). */
export function CustomerFields() {
  const { t } = useTranslation();
  const req = [{ required: true, whitespace: true, message: t('com_value_required') }];
  return (
    <>
      <Form.Item name="name" label={t('customer.name')} rules={[...req, { max: 64 }]}>
        <Input data-testid="customer-name" />
      </Form.Item>
      <Form.Item name="code" label={t('customer.code')} rules={[...req, { max: 32 }, { pattern: /^[A-Za-z0-9_-]+$/, message: t('customer.codeRule') }]}>
        <Input data-testid="customer-code" />
      </Form.Item>
      <Form.Item name="logo" label={t('customer.logo')}>
        <ImageField testId="customer-logo" />
      </Form.Item>
      <Form.Item name="contact" label={t('customer.contact')} rules={[{ max: 64 }]}>
        <Input />
      </Form.Item>
      <Form.Item name="telephone" label={t('customer.telephone')} rules={[{ max: 32 }, { pattern: /^[0-9+\-() ]*$/, message: t('com_invalid_phone') }]}>
        <Input />
      </Form.Item>
      <Form.Item name="address" label={t('customer.address')} rules={[{ max: 200 }]}>
        <Input.TextArea rows={2} />
      </Form.Item>
      <Space size="large">
        <Form.Item name="platform" valuePropName="checked">
          <Checkbox>{t('customer.platform')}</Checkbox>
        </Form.Item>
        <Form.Item name="readOnly" valuePropName="checked">
          <Checkbox>{t('customer.readOnly')}</Checkbox>
        </Form.Item>
      </Space>
    </>
  );
}
