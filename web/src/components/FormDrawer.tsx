/**
 * Add/edit drawer used by every list page: vertical form, Cancel and Save, closes on success.
 * Every form puts its buttons in one place in one order, antd's own (its modals' footer):
 * Cancel then the primary Save, right-aligned at the bottom (issue 30 item 20).
 */
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
      footer={
        <FormButtons>
          <Button onClick={onClose}>{t('com_cancel')}</Button>
          <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid={testId ? `${testId}-save` : 'drawer-save'}>
            {t('com_save')}
          </Button>
        </FormButtons>
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

/** A form's buttons, right-aligned, in the order given (Cancel, then the primary action). */
export function FormButtons({ children }: { children: ReactNode }) {
  return (
    <div style={{ display: 'flex', justifyContent: 'flex-end' }} data-testid="form-buttons">
      <Space>{children}</Space>
    </div>
  );
}

/** Cancel (back) and Save (submits the surrounding form) of a full-page form. */
export function FormPageActions({ busy, testId }: { busy: boolean; testId?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <FormButtons>
      <Button onClick={() => void navigate(-1)}>{t('com_cancel')}</Button>
      <Button type="primary" htmlType="submit" loading={busy} data-testid={testId}>
        {t('com_save')}
      </Button>
    </FormButtons>
  );
}
