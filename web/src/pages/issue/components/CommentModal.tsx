/** Close or reopen with a comment (required, never empty: docs/tickets.md, "States"). */
import { useState } from 'react';
import { Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import RichTextEditor from '../../../components/richtext/RichTextEditor';
import { registerTexts } from '../../../locales/domains';
import { ticketTexts } from '../../../locales/domains/ticket';

registerTexts(ticketTexts);

export interface CommentModalProps {
  open: boolean;
  title: string;
  onClose(): void;
  onSubmit(comment: string): Promise<boolean>;
  testId?: string;
}

export default function CommentModal({ open, title, onClose, onSubmit, testId }: CommentModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ comment: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async ({ comment }: { comment: string }) => {
    setBusy(true);
    try {
      if (await onSubmit(comment)) {
        form.resetFields();
        onClose();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={title} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} width={640} destroyOnHidden okButtonProps={{ 'data-testid': `${testId}-ok` } as never}>
      <Form form={form} layout="vertical" onFinish={submit} data-testid={testId}>
        <Form.Item name="comment" label={t('ticket.comment')} rules={[{ required: true, whitespace: true, message: t('ticket.commentRequired') }]}>
          <RichTextEditor images testId={`${testId}-editor`} minHeight={120} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
