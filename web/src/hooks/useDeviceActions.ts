import { useTranslation } from 'react-i18next';
import { useActions } from './useActions';
import { deleteDevices, enableDevices, maintainDevices, maintainedDevices, deviceKeys } from '../services/device';
import type { Device } from '../services/typings';

/** Row/detail actions on devices, each confirmed. */
export function useDeviceActions(onDeleted?: () => void) {
  const { t } = useTranslation();
  const { confirm } = useActions();
  const invalidate = [deviceKeys.lists, deviceKeys.details, deviceKeys.counts];
  return {
    enable: (d: Device) =>
      confirm(() => enableDevices([d.id], !d.enabled), { title: t(d.enabled ? 'device.confirmDisable' : 'device.confirmEnable', { name: d.sn }), invalidate }),
    maintain: (d: Device) =>
      confirm(() => maintainDevices([d.id], !d.maintainMode), {
        title: t(d.maintainMode ? 'device.confirmMaintainOff' : 'device.confirmMaintainOn', { name: d.sn }),
        invalidate,
      }),
    maintained: (d: Device) => confirm(() => maintainedDevices([d.id]), { title: t('device.confirmMaintained', { name: d.sn }), content: t('device.maintainedHint'), invalidate }),
    remove: (d: Device) => confirm(() => deleteDevices([d.id]), { title: t('com_confirm_delete', { name: d.sn }), danger: true, invalidate, onDone: onDeleted }),
  };
}
