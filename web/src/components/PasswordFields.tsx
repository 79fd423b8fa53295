/** New password + confirmation with the docs/api.md#passwords-on-the-wire rules. */
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { isStrongPassword } from '../utils/password';

export default function PasswordFields({ name = 'password', confirmName = 'confirm' }: { name?: string; confirmName?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name={name}
        label={t('password.new')}
        extra={t('password.rule')}
        rules={[
          { required: true, message: t('com_value_required') },
          { validator: (_, v: string) => (!v || isStrongPassword(v) ? Promise.resolve() : Promise.reject(new Error(t('password.rule')))) },
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="password-new" />
      </Form.Item>
      <Form.Item
        name={confirmName}
        label={t('password.confirm')}
        dependencies={[name]}
        rules={[
          { required: true, message: t('com_value_required') },
          ({ getFieldValue }) => ({
            validator: (_, v: string) =>
              !v || v === getFieldValue(name) ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="password-confirm" />
      </Form.Item>
    </>
  );
}
