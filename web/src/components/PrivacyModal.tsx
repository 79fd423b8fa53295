/** Privacy policy (spec §1): blocks all use until accepted. Server HTML is sanitised. */
import { useState } from 'react';
import { Button, Modal } from 'antd';
import DOMPurify from 'dompurify';
import { useTranslation } from 'react-i18next';
import { acceptPrivacy } from '../services/auth';
import { refreshSession, useSession } from '../models/session';

export default function PrivacyModal() {
  const { session } = useSession();
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const privacy = session?.privacy;
  if (!privacy?.needConfirm) return null;
  const html = DOMPurify.sanitize(privacy.content ?? '');
  const accept = async () => {
    setBusy(true);
    try {
      await acceptPrivacy(privacy.newPrivacyPolicyVersion);
      await refreshSession();
    } catch {
      /* the request layer has shown the error */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('privacy.title')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={720}
      modalRender={(node) => <div data-testid="privacy-modal">{node}</div>}
      footer={
        <Button type="primary" loading={busy} onClick={accept} data-testid="privacy-accept">
          {t('privacy.accept')}
        </Button>
      }
    >
      <div className="privacy-content" dangerouslySetInnerHTML={{ __html: html }} />
    </Modal>
  );
}
