/** OCPP messages by plain names with the OCPP name beside (issue 30 item 19; utils/protocolNames). */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../locales/domains';
import { protocolTexts } from '../locales/domains/protocol';
import { frameLabel, messageLabel, type MessageLabel } from '../utils/protocolNames';

registerTexts(protocolTexts);

function Label({ l, testId }: { l: MessageLabel; testId: string }) {
  return (
    <span data-testid={testId} title={l.code || undefined}>
      {l.name}
      {l.code && (
        <Typography.Text type="secondary" translate="no">
          {` · ${l.code}`}
        </Typography.Text>
      )}
    </span>
  );
}

/** An OCPP action ("MeterValues") as "Meter readings · MeterValues". */
export function OcppMessage({ action }: { action: string }) {
  const { t, i18n } = useTranslation();
  return <Label l={messageLabel(action, t, (k) => i18n.exists(k))} testId="ocpp-message" />;
}

/** A protocol-log frame's summary: the message's plain name, the raw "CALL MeterValues" beside. */
export function FrameSummary({ data }: { data: string }) {
  const { t, i18n } = useTranslation();
  const l = frameLabel(data, t, (k) => i18n.exists(k));
  return l.name ? <Label l={l} testId="frame-summary" /> : <>-</>;
}

/** Select options of OCPP actions, each by its plain name with the OCPP name beside. */
export function messageOptions(actions: readonly string[]) {
  return actions.map((m) => ({ value: m, label: <OcppMessage action={m} /> }));
}
