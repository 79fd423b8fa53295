/** Captcha input with its image; click the image to get a new one. */
import { forwardRef, useCallback, useEffect, useImperativeHandle, useState } from 'react';
import { Input, Space, Tooltip } from 'antd';
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

const Captcha = forwardRef<CaptchaHandle, Props>(function Captcha({ value, onChange, onCaptchaId, testId }, ref) {
  const { t } = useTranslation();
  const [image, setImage] = useState('');
  const refresh = useCallback(() => {
    getCaptcha()
      .then((c) => {
        setImage(c.image);
        onCaptchaId(c.captchaId);
      })
      .catch(() => undefined);
  }, [onCaptchaId]);
  useEffect(refresh, [refresh]);
  useImperativeHandle(ref, () => ({ refresh }), [refresh]);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        data-testid={testId}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder={t('login.captcha')}
        autoComplete="off"
        size="large"
      />
      <Tooltip title={t('login.captchaRefresh')}>
        {image ? (
          <img
            src={image}
            alt={t('login.captcha')}
            data-testid="captcha-image"
            onClick={refresh}
            style={{ height: 40, cursor: 'pointer', border: '1px solid #d9d9d9', borderLeft: 0 }}
          />
        ) : (
          <span style={{ width: 120 }} />
        )}
      </Tooltip>
    </Space.Compact>
  );
});

export default Captcha;
