/**
 * The device page's Smart charging tab (issue 25, docs/smart-charging.md): the charging profiles
 * chargeops set on the charger (ProfilesCard, with set and clear), its composite schedule as a
 * chart (CompositeCard) and its part in its site's load management plan (LoadCard). The actions
 * need auth_device_edit (control/send) and auth_device_chargingProfile; the plan's settings
 * auth_site_power_edit. Loaded lazily by the device page when the tab opens.
 */
import { useCan } from '../../../components/access';
import { registerTexts } from '../../../locales/domains';
import { powerTexts } from '../../../locales/domains/power';
import type { Device } from '../../../services/typings';
import CompositeCard from './CompositeCard';
import LoadCard from './LoadCard';
import ProfilesCard from './ProfilesCard';

registerTexts(powerTexts);

export default function SmartChargingTab({ device }: { device: Device }) {
  const can = useCan();
  const operate = can(['auth_device_edit', 'auth_device_chargingProfile'], 'all');
  return (
    <div data-testid="device-smart">
      <ProfilesCard device={device} editable={operate} />
      <CompositeCard device={device} editable={operate} />
      <LoadCard deviceId={device.id} editable={can('auth_site_power_edit')} />
    </div>
  );
}
