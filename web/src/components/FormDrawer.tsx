/** Add/edit drawer used by every list page: vertical form, Save/Cancel, closes on success. */
import { useEffect, useState, type ReactNode } from 'react';
import { Button, Drawer, Form, Space, type FormInstance } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export interface FormDrawerProps<V> {
  open: boolean;
  title: ReactNode;
  initialValues?: Partial<V>;
  onClose(): void;
  /** Resolves true when saved (the drawer then closes). */
  onSubmit(values: V): Promise<boolean>;
  children: ReactNode | ((form: FormInstance<V>) => ReactNode);
  width?: number;
  testId?: string;
}

export default function FormDrawer<V extends object>({ open, title, initialValues, onClose, onSubmit, children, width = 520, testId }: FormDrawerProps<V>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      form.resetFields();
      if (initialValues) form.setFieldsValue(initialValues as never);
    }
  }, [open, initialValues, form]);
  const submit = async (v: V) => {
    setBusy(true);
    try {
      if (await onSubmit(v)) onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Drawer
      open={open}
      title={title}
      width={width}
      onClose={onClose}
      destroyOnHidden
      forceRender
      extra={
        <Space>
          <Button onClick={onClose}>{t('com_cancel')}</Button>
          <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid={testId ? `${testId}-save` : 'drawer-save'}>
            {t('com_save')}
          </Button>
        </Space>
      }
    >
      <div data-testid={testId}>
        <Form<V> form={form} layout="vertical" onFinish={submit} initialValues={initialValues}>
          {typeof children === 'function' ? children(form) : children}
        </Form>
      </div>
    </Drawer>
  );
}

/** Drawer state for "add" (empty object) or "edit" (a row). */
export function useDrawer<R>() {
  const [row, setRow] = useState<Partial<R> | null>(null);
  return { open: row !== null, row, add: () => setRow({}), edit: (r: R) => setRow(r as Partial<R>), close: () => setRow(null) };
}

/** Save (submits the surrounding form) and Cancel (back) of a full-page form. */
export function FormPageActions({ busy, testId }: { busy: boolean; testId?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Space>
      <Button type="primary" htmlType="submit" loading={busy} data-testid={testId}>
        {t('com_save')}
      </Button>
      <Button onClick={() => void navigate(-1)}>{t('com_cancel')}</Button>
    </Space>
  );
}
