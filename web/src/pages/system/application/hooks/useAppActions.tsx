import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActions } from '../../../../hooks/useActions';
import { APP_DISABLED, APP_ENABLED, appKeys, deleteApps, rotateAppSecret, setAppStatus, type App, type AppMade } from '../../../../services/application';
import SecretModal from '../SecretModal';

/** Enable/disable, delete and rotate (with the one-time secret modal) of an application. */
export function useAppActions(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { confirm } = useActions();
  const [made, setMade] = useState<AppMade | null>(null);
  const toggle = (a: App) => {
    const enable = a.status !== APP_ENABLED;
    confirm(() => setAppStatus([a.id], enable ? APP_ENABLED : APP_DISABLED), {
      title: t(enable ? 'app.confirmEnable' : 'app.confirmDisable', { name: a.name }),
      invalidate: [appKeys.list, appKeys.details],
    });
  };
  const remove = (a: App) =>
    confirm(() => deleteApps([a.id]), {
      title: t('app.confirmDelete', { name: a.name }),
      danger: true,
      success: t('app.deleted'),
      invalidate: [appKeys.list],
      onDone: onDeleted,
    });
  const rotate = (a: App) =>
    confirm(async () => setMade(await rotateAppSecret(a.id)), {
      title: t('app.confirmRotate', { name: a.name }),
      content: t('app.confirmRotateContent'),
      success: false,
      invalidate: [appKeys.list, appKeys.details],
    });
  const secretModal = <SecretModal made={made} onClose={() => setMade(null)} />;
  return { toggle, remove, rotate, secretModal };
}
