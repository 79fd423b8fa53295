import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { chooseLocale, isLocale, LOCALES } from '../i18n';

export default function LanguageSwitch() {
  const { i18n, t } = useTranslation();
  return (
    <span data-testid="language-switch">
    <Select
      aria-label={t('com_language')}
      size="small"
      style={{ width: 110 }}
      value={i18n.language}
      onChange={(v) => isLocale(v) && chooseLocale(v)}
      options={LOCALES.map((l) => ({ value: l, label: t(`com_locale_${l}`) }))}
    />
    </span>
  );
}
