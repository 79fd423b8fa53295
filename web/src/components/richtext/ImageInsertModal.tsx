/**
 * "Insert image" of the rich-text editor (docs/tickets.md, "Rich-text editor"): pick up to
 * MAX_IMAGES JPG or PNG images (20 MB each, the storage rules of kind image), each uploaded at
 * once through the console's upload path; OK inserts them (at least one is required).
 */
import { useState } from 'react';
import { Alert, Button, Modal, Progress, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useUpload } from '../../hooks/useUpload';
import { acceptOf, humanLimit, UPLOAD_RULES } from '../../utils/uploadRules';
import { signedUrl } from '../../services/storage';
import { registerTexts } from '../../locales/domains';
import { richtextTexts } from '../../locales/domains/richtext';

registerTexts(richtextTexts);

/** At most this many images per insert. */
export const MAX_IMAGES = 5;

export interface InsertedImage {
  /** The objectKey the server stores (`data-key`). */
  key: string;
  /** A signed URL to show it in the editor (the server drops it and signs again). */
  src: string;
}

export interface ImageInsertModalProps {
  open: boolean;
  onClose(): void;
  onInsert(images: InsertedImage[]): void;
}

export default function ImageInsertModal({ open, onClose, onInsert }: ImageInsertModalProps) {
  const { t } = useTranslation();
  const { upload, percents, busy } = useUpload('image');
  const [images, setImages] = useState<InsertedImage[]>([]);
  const [required, setRequired] = useState(false);
  const rule = UPLOAD_RULES.image;
  const room = MAX_IMAGES - images.length - percents.length;

  const close = () => {
    setImages([]);
    setRequired(false);
    onClose();
  };
  const ok = () => {
    if (!images.length) {
      setRequired(true);
      return;
    }
    onInsert(images);
    close();
  };
  return (
    <Modal
      open={open}
      title={t('richtext.image.title')}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          {t('com_cancel')}
        </Button>,
        <Button key="ok" type="primary" disabled={busy} onClick={ok} data-testid="richtext-image-ok">
          {t('richtext.image.insert')}
        </Button>,
      ]}
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="richtext-image-modal">
        <Space wrap align="start">
          {images.map((img, i) => (
            <Space key={img.key} direction="vertical" size={4} align="center" style={{ width: 80 }}>
              <img src={img.src} alt="" width={80} height={80} style={{ objectFit: 'contain', border: '1px solid #f0f0f0' }} />
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('com_delete')} onClick={() => setImages((l) => l.filter((_, j) => j !== i))} />
            </Space>
          ))}
          {percents.map((p, i) => (
            <Progress key={i} type="circle" percent={p} size={80} />
          ))}
        </Space>
        <Upload
          accept={acceptOf('image')}
          multiple
          showUploadList={false}
          disabled={room <= 0}
          beforeUpload={(file, batch) => {
            // Only the first `room` files of one pick are taken: at most MAX_IMAGES per insert.
            if (batch.indexOf(file) < room) {
              void upload(file).then(async (done) => {
                if (!done) return;
                const src = done.url || (await signedUrl(done.objectKey).catch(() => ''));
                setImages((l) => (l.length < MAX_IMAGES ? [...l, { key: done.objectKey, src }] : l));
                setRequired(false);
              });
            }
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} disabled={room <= 0} data-testid="richtext-image-pick">
            {t('upload.pick')}
          </Button>
        </Upload>
        <Typography.Text type="secondary">
          {t('upload.hint', { typeList: rule.typeList, maxSize: humanLimit(rule.maxBytes) })} {t('richtext.image.max', { count: MAX_IMAGES })}
        </Typography.Text>
        {required && <Alert type="error" showIcon message={t('richtext.image.required')} data-testid="richtext-image-required" />}
      </Space>
    </Modal>
  );
}
