/**
 * Privacy policy (docs/api.md#privacy-policy): blocks all use until accepted, shown over the console (the layout
 * renders behind it). Server HTML is sanitised. The policy's own leading heading becomes the
 * modal title, so the title shows once.
 */
import { useMemo, useState } from 'react';
import { Button, Modal } from 'antd';
import DOMPurify from 'dompurify';
import { useTranslation } from 'react-i18next';
import { acceptPrivacy } from '../services/auth';
import { privacyAccepted, useSession } from '../models/session';

/** Sanitised policy HTML split into its leading heading (if any) and the rest. */
export function splitPolicy(raw: string): { title: string | null; html: string } {
  const doc = new DOMParser().parseFromString(DOMPurify.sanitize(raw), 'text/html');
  // the first node with content, when it is a heading
  const first = Array.from(doc.body.childNodes).find((n) => n.nodeType === Node.ELEMENT_NODE || n.textContent?.trim());
  const heading = first instanceof HTMLElement && /^H[1-6]$/.test(first.tagName) ? first : null;
  const title = heading?.textContent?.trim() || null;
  if (title) heading?.remove();
  return { title, html: doc.body.innerHTML };
}

export default function PrivacyModal() {
  const { session } = useSession();
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const privacy = session?.privacy;
  const policy = useMemo(() => splitPolicy(privacy?.content ?? ''), [privacy?.content]);
  if (!privacy?.needConfirm) return null;
  const accept = async () => {
    setBusy(true);
    try {
      await acceptPrivacy(privacy.newPrivacyPolicyVersion);
      await privacyAccepted();
    } catch {
      /* the request layer has shown the error */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={<span data-testid="privacy-title">{policy.title ?? t('privacy.title')}</span>}
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
      <div className="privacy-content" dangerouslySetInnerHTML={{ __html: policy.html }} />
    </Modal>
  );
}
