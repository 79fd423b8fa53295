/**
 * Stops a charging session from the console: RemoteStopTransaction (control type 13 with the
 * session's id), shown to holders of the remote start/stop key only, followed like the device
 * page's remote operations (control/detail polled until it is no longer waiting).
 */
import { App, Button, Space, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { useCommands } from '../../../hooks/useCommands';
import { RESULT_COLORS } from '../../../services/fleet';
import { CTL_REMOTE_STOP, REMOTE_STOP_KEY, sessionKeys, type SessionDetail } from '../../../services/session';

export default function StopButton({ session }: { session: SessionDetail }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const can = useCan();
  const qc = useQueryClient();
  const { states, sending, send } = useCommands();
  if (session.stoppedAt > 0 || !can(REMOTE_STOP_KEY)) return null;
  const state = states[0];
  const stop = () =>
    modal.confirm({
      title: t('session.stop.confirm', { id: session.id }),
      okButtonProps: { danger: true },
      onOk: async () => {
        await send([{ id: session.deviceId, sn: session.sn }], CTL_REMOTE_STOP, { transactionId: session.id });
        void qc.invalidateQueries({ queryKey: sessionKeys.all });
      },
    });
  return (
    <Space data-testid="session-stop">
      <Button danger loading={sending || state?.result === 1} onClick={stop}>
        {t('session.stop')}
      </Button>
      {state && (
        <Tag color={state.result ? RESULT_COLORS[state.result] : 'error'} data-testid="session-stop-result">
          {state.result ? t('session.stop.result', { result: t(`command.result.${state.result}`) }) : state.message}
        </Tag>
      )}
    </Space>
  );
}
