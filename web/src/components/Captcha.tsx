/**
 * Captcha input with its image; click the image, or the refresh button beside it, to get a new
 * one. The image (240×120 from the server, internal/auth/captcha.go: dark digits on white, light
 * noise) is shown at 160×80 so the digits stay sharp and legible. The server reads the answer
 * with spaces dropped and full-width digits as ASCII.
 *
 * One fetch per need: one on mount and one per refresh(). The parent's onCaptchaId is read
 * through a ref, so a parent re-render (a failed login sets its error and busy state) does not
 * make a new refresh and fetch again; an answer that arrives after a newer request was made is
 * dropped, so the image and the id sent with the form always belong together.
 */
import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Button, Input } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { getCaptcha } from '../services/auth';

export interface CaptchaHandle {
  refresh: () => void;
}

interface Props {
  value?: string;
  onChange?: (v: string) => void;
  onCaptchaId: (id: string) => void;
  testId?: string;
}

const WIDTH = 160;
const HEIGHT = 80;

const Captcha = forwardRef<CaptchaHandle, Props>(function Captcha({ value, onChange, onCaptchaId, testId }, ref) {
  const { t } = useTranslation();
  const [image, setImage] = useState('');
  const onId = useRef(onCaptchaId);
  onId.current = onCaptchaId;
  const latest = useRef(0);
  const refresh = useCallback(() => {
    const seq = ++latest.current;
    getCaptcha()
      .then((c) => {
        if (seq !== latest.current) return;
        setImage(c.image);
        onId.current(c.captchaId);
      })
      .catch(() => undefined);
  }, []);
  useEffect(refresh, [refresh]);
  useImperativeHandle(ref, () => ({ refresh }), [refresh]);
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <Input
        data-testid={testId}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder={t('login.captcha')}
        autoComplete="off"
        inputMode="numeric"
        size="large"
        style={{ flex: 1 }}
      />
      <button
        type="button"
        onClick={refresh}
        title={t('login.captchaRefresh')}
        aria-label={t('login.captchaRefresh')}
        data-testid="captcha-refresh"
        style={{ width: WIDTH, height: HEIGHT, padding: 0, border: '1px solid #d9d9d9', borderRadius: 6, background: '#fff', cursor: 'pointer', flex: 'none' }}
      >
        {image && <img src={image} alt={t('login.captcha')} data-testid="captcha-image" width={WIDTH - 2} height={HEIGHT - 2} style={{ display: 'block' }} />}
      </button>
      <Button
        type="text"
        size="large"
        icon={<ReloadOutlined />}
        onClick={refresh}
        title={t('login.captchaNew')}
        aria-label={t('login.captchaNew')}
        data-testid="captcha-new"
        style={{ flex: 'none' }}
      />
    </div>
  );
});

export default Captcha;
