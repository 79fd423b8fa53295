/**
 * The device page's "Local list" action (docs/tokens.md, "Local list"): the version the charger
 * holds against its customer's, with buttons to send the full list or the changes and to ask the
 * charger's version (both through the command path, so they are in the command history).
 */
import { useState } from 'react';
import { Button, Descriptions, Modal, Space, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../components/access';
import { useActions } from '../../hooks/useActions';
import { registerTexts } from '../../locales/domains';
import { tokenTexts } from '../../locales/domains/token';
import { post } from '../../services/request';
import { localListState, sendLocalList, tokenKeys } from '../../services/token';
import { formatTime } from '../../utils/time';

registerTexts(tokenTexts);

/** Control type 20 GetLocalListVersion (docs/decisions.md §6). */
const GET_LOCAL_LIST_VERSION = 20;

export default function LocalListButton({ deviceId, sn }: { deviceId: number; sn: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="device-local-list">
        {t('token.localList')}
      </Button>
      {open && <LocalListModal deviceId={deviceId} sn={sn} canSend={can('auth_token_edit')} onClose={() => setOpen(false)} />}
    </>
  );
}

function LocalListModal({ deviceId, sn, canSend, onClose }: { deviceId: number; sn: string; canSend: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { run } = useActions();
  const q = useQuery({ queryKey: tokenKeys.localList(deviceId), queryFn: () => localListState(deviceId), refetchInterval: 3000 });
  const s = q.data;
  const refresh = () => void qc.invalidateQueries({ queryKey: tokenKeys.localList(deviceId) });
  const held = !s ? '' : !s.heldKnown ? t('token.localList.unknown') : s.heldVersion < 0 ? t('token.localList.none') : String(s.heldVersion);
  return (
    <Modal open title={t('token.localList.title', { sn })} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      <div data-testid="local-list-modal">
        {s && (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('token.localList.current')}>{s.currentVersion}</Descriptions.Item>
            <Descriptions.Item label={t('token.localList.held')}>
              <Space>
                <span data-testid="local-list-held">{held}</span>
                <Tag color={s.inSync ? 'success' : 'warning'}>{t(s.inSync ? 'token.localList.inSync' : 'token.localList.outOfSync')}</Tag>
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('token.localList.heldAt')}>{s.heldAt ? formatTime(s.heldAt) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('token.localList.sent')}>{s.sentAt ? `${s.sentVersion} · ${formatTime(s.sentAt)}` : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('token.localList.tokens')}>{s.tokens}</Descriptions.Item>
            <Descriptions.Item label={t('token.localList.max')}>{s.maxLength || t('token.unknownValue')}</Descriptions.Item>
            <Descriptions.Item label={t('token.localList.enabled')}>{s.enabled == null ? t('token.unknownValue') : String(s.enabled)}</Descriptions.Item>
          </Descriptions>
        )}
        {canSend && (
          <Space style={{ marginTop: 16 }}>
            <Button type="primary" onClick={() => void run(() => sendLocalList(deviceId, 'Full'), { success: t('token.localList.sent.ok'), onDone: refresh })} data-testid="local-list-full">
              {t('token.localList.sendFull')}
            </Button>
            <Button onClick={() => void run(() => sendLocalList(deviceId, 'Differential'), { success: t('token.localList.sent.ok'), onDone: refresh })} data-testid="local-list-diff">
              {t('token.localList.sendDiff')}
            </Button>
            <Button
              onClick={() =>
                void run(() => post('/api/auth/sys/dev/control/send', { deviceIds: [deviceId], controlType: GET_LOCAL_LIST_VERSION, params: {} }), {
                  success: t('token.localList.sent.ok'),
                  onDone: refresh,
                })
              }
              data-testid="local-list-version"
            >
              {t('token.localList.getVersion')}
            </Button>
          </Space>
        )}
      </div>
    </Modal>
  );
}
