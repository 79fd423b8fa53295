import { useTranslation } from 'react-i18next';
import { useActions } from '../../../hooks/useActions';
import { deleteSites, setSiteStatus, SITE_DISABLED, SITE_ENABLED, siteKeys } from '../../../services/site';
import type { Site } from '../../../services/typings';

/** Enable/disable and delete with confirmation (list and detail). */
export function useSiteActions(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { confirm } = useActions();
  const invalidate = [siteKeys.list, siteKeys.details, siteKeys.options];
  return {
    toggle: (s: Site) => {
      const enable = s.status !== SITE_ENABLED;
      confirm(() => setSiteStatus([s.id], enable ? SITE_ENABLED : SITE_DISABLED), {
        title: t(enable ? 'site.confirmEnable' : 'site.confirmDisable', { name: s.name }),
        invalidate,
      });
    },
    remove: (s: Site) =>
      confirm(() => deleteSites([s.id]), { title: t('com_confirm_delete', { name: s.name }), content: t('site.deleteHint'), danger: true, invalidate, onDone: onDeleted }),
  };
}
