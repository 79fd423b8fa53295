/** The charging sessions tab of the device and site pages: the sessions table fixed to one device or site, filters kept in the tab. */
import { useState } from 'react';
import { registerTexts } from '../../locales/domains';
import { sessionTexts } from '../../locales/domains/session';
import SessionTable, { type SessionFilters } from './components/SessionTable';

registerTexts(sessionTexts);

/** `evse`: the device speaks OCPP 2.0.1, its sessions' connector is the EVSE. */
export default function SessionTab({ deviceId, siteId, evse }: { deviceId?: number; siteId?: number; evse?: boolean }) {
  const [filters, setFilters] = useState<SessionFilters>({});
  return <SessionTable fixed={deviceId ? { deviceId } : { siteId }} filters={filters} onSearch={setFilters} testId="session-tab" evse={evse} />;
}
