/**
 * The device terminal dialog (loaded with xterm.js on first use: RemoteLinkPanel): asks the
 * username, password and port of the charger's SSH server, then shows the terminal. The
 * terminal box can be dragged taller and the dialog maximised; the terminal follows either
 * size. The password is kept only while the dialog is open.
 */
import { useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Space, Tag } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SSH_PORT } from '../../../services/remote';
import { loginProblem, type TerminalLogin } from './protocol';
import TerminalView, { type TerminalEnd } from './TerminalView';

type Phase = { step: 'login' } | { step: 'connecting' | 'ready'; login: TerminalLogin; run: number } | { step: 'ended'; login: TerminalLogin; run: number; end: TerminalEnd };

export default function TerminalDialog({ deviceId, sn, account, onClose }: { deviceId: number; sn: string; account: string; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TerminalLogin>();
  const [phase, setPhase] = useState<Phase>({ step: 'login' });
  const [max, setMax] = useState(false);
  const [run, setRun] = useState(0);

  const connect = (login: TerminalLogin) => {
    const problem = loginProblem(login);
    if (problem) return;
    setRun((r) => r + 1);
    setPhase({ step: 'connecting', login, run: run + 1 });
  };
  const submit = () =>
    void form.validateFields().then(
      (v) => connect({ username: v.username.trim(), password: v.password, port: Number(v.port) }),
      () => undefined, // the form shows what is wrong
    );

  const status =
    phase.step === 'login' ? null : (
      <Tag
        color={phase.step === 'ended' ? (phase.end.kind === 'closed' ? 'default' : 'error') : phase.step === 'ready' ? 'success' : 'processing'}
        data-testid="terminal-status"
        data-phase={phase.step}
      >
        {t(phase.step === 'connecting' ? 'rlink.term.connecting' : phase.step === 'ready' ? 'rlink.term.connected' : 'rlink.term.ended')}
      </Tag>
    );

  const footer =
    phase.step === 'login' ? (
      <Space>
        <Button onClick={onClose}>{t('com_cancel')}</Button>
        <Button type="primary" onClick={submit} data-testid="terminal-connect">
          {t('rlink.term.connect')}
        </Button>
      </Space>
    ) : (
      <Space>
        {phase.step === 'ended' && (
          <Button onClick={() => connect(phase.login)} data-testid="terminal-reconnect">
            {t('rlink.term.reconnect')}
          </Button>
        )}
        {phase.step === 'ended' && <Button onClick={() => setPhase({ step: 'login' })}>{t('rlink.term.changeLogin')}</Button>}
        <Button type="primary" onClick={onClose} data-testid="terminal-close">
          {t('rlink.term.close')}
        </Button>
      </Space>
    );

  return (
    <Modal
      open
      title={
        <Space>
          {t('rlink.term.title', { sn })}
          {status}
          {phase.step !== 'login' && (
            <Button
              type="text"
              size="small"
              icon={max ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={() => setMax((m) => !m)}
              aria-label={t(max ? 'rlink.term.restore' : 'rlink.term.maximise')}
              title={t(max ? 'rlink.term.restore' : 'rlink.term.maximise')}
            />
          )}
        </Space>
      }
      onCancel={onClose}
      footer={footer}
      maskClosable={false}
      destroyOnHidden
      width={phase.step === 'login' ? 440 : max ? '100vw' : 'min(1000px, 96vw)'}
      style={max && phase.step !== 'login' ? { top: 0, maxWidth: '100vw', paddingBottom: 0 } : undefined}
      data-testid="terminal-dialog"
    >
      {phase.step === 'login' ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ username: account || 'root', password: '', port: SSH_PORT }}
          onFinish={submit}
          data-testid="terminal-login"
        >
          <Form.Item name="username" label={t('rlink.term.username')} rules={[{ required: true, whitespace: true, message: t('rlink.term.usernameRequired') }]}>
            <Input autoComplete="off" data-testid="terminal-username" />
          </Form.Item>
          <Form.Item name="password" label={t('rlink.term.password')} rules={[{ required: true, message: t('rlink.term.passwordRequired') }]}>
            <Input.Password autoComplete="new-password" data-testid="terminal-password" onPressEnter={submit} />
          </Form.Item>
          <Form.Item
            name="port"
            label={t('rlink.term.port')}
            rules={[{ required: true, type: 'integer', min: 1, max: 65535, message: t('rlink.term.portInvalid') }]}
          >
            <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} data-testid="terminal-port" />
          </Form.Item>
        </Form>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          {phase.step === 'ended' && (
            <Alert type={phase.end.kind === 'closed' ? 'info' : 'error'} showIcon message={phase.end.message} data-testid="terminal-message" />
          )}
          <div
            style={{
              height: max ? 'calc(100vh - 210px)' : 460,
              minHeight: 160,
              resize: 'vertical',
              overflow: 'hidden',
              background: '#000',
              padding: 4,
              borderRadius: 4,
            }}
            data-testid="terminal-box"
          >
            <TerminalView
              key={phase.run}
              deviceId={deviceId}
              login={phase.login}
              onReady={() => setPhase((p) => (p.step === 'connecting' ? { ...p, step: 'ready' } : p))}
              onEnd={(end) => setPhase((p) => (p.step === 'login' ? p : { step: 'ended', login: p.login, run: p.run, end }))}
            />
          </div>
        </Space>
      )}
    </Modal>
  );
}
