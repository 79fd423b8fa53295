/** The appId and appSecret of a new or rotated application, shown this once with copy buttons. */
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppMade } from '../../../services/application';
import { formatTime } from '../../../utils/time';

export default function SecretModal({ made, onClose }: { made: AppMade | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={!!made}
      title={t('app.madeTitle')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={640}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="app-secret-done">
          {t('app.madeDone')}
        </Button>
      }
    >
      {made && (
        <div data-testid="app-secret-modal">
          <Alert type="warning" showIcon message={t('app.madeWarning')} style={{ marginBottom: 16 }} />
          <Descriptions bordered size="small" column={1}>
            <Descriptions.Item label={t('app.appId')}>
              <Typography.Text copyable code data-testid="app-made-id">
                {made.appId}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('app.appSecret')}>
              <Typography.Text copyable code data-testid="app-made-secret">
                {made.appSecret}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          {made.prevExpiresAt > 0 && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
              {t('app.prevValidUntil', { time: formatTime(made.prevExpiresAt) })}
            </Typography.Paragraph>
          )}
        </div>
      )}
    </Modal>
  );
}
