/**
 * docs/update/content/:categoryId/:id — the content editor (docs/docs-wiki.md, "Editor"):
 * TipTap through the shared RichTextEditor (this page is lazy, so TipTap loads only here),
 * images from storage through its insert dialog. While there are unsaved changes the content
 * is autosaved every 30 s to the caller's draft on the server; leaving the editor (after a
 * warning) marks the draft, which is kept 2 minutes: coming back sooner restores it with a
 * notice. The browser's own warning covers closing or reloading the tab.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Card, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, NotFoundResult } from '../../components/PageHeader';
import RichTextEditor from '../../components/richtext/RichTextEditor';
import Forbidden from '../../components/Forbidden';
import { useActions } from '../../hooks/useActions';
import { autosaveMs, deleteDraft, docDetail, docsKeys, getDraft, saveDocContent, saveDraft } from '../../services/docs';
import { formatTime } from '../../utils/time';
import { isHidden } from './components/shared';

export default function DocEditor() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { modal } = App.useApp();
  const { run } = useActions();
  const doc = useQuery({ queryKey: docsKeys.detail(id), queryFn: () => docDetail(id), enabled: id > 0, retry: false, staleTime: 0 });
  const draft = useQuery({
    queryKey: docsKeys.draft(id),
    queryFn: () => getDraft(id),
    enabled: id > 0 && !!doc.data?.writable,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const [value, setValue] = useState<string>();
  const [dirty, setDirty] = useState(false);
  const [restoredAt, setRestoredAt] = useState(0);
  const [autosavedAt, setAutosavedAt] = useState(0);
  const [busy, setBusy] = useState(false);
  const valueRef = useRef('');
  const dirtyRef = useRef(false);
  const lastDraft = useRef('');
  valueRef.current = value ?? '';
  dirtyRef.current = dirty;

  // The content to start from: a draft that differs from the document, else the document.
  useEffect(() => {
    if (value !== undefined || !doc.data || !draft.isFetched) return;
    const d = draft.data;
    if (d?.found && !d.same) {
      setValue(d.content);
      lastDraft.current = d.content;
      setDirty(true);
      setRestoredAt(d.savedAt);
    } else setValue(doc.data.content ?? ''); // omitted when empty
  }, [doc.data, draft.isFetched, draft.data, value]);

  // Autosave: every interval while there are changes not yet in the draft.
  useEffect(() => {
    if (!(id > 0)) return;
    const timer = window.setInterval(() => {
      if (!dirtyRef.current || valueRef.current === lastDraft.current) return;
      const content = valueRef.current;
      saveDraft(id, content)
        .then((d) => {
          lastDraft.current = content;
          setAutosavedAt(d.savedAt);
        })
        .catch(() => undefined);
    }, autosaveMs());
    return () => window.clearInterval(timer);
  }, [id]);

  // The browser's warning before closing or reloading with unsaved changes.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Leaving inside the console: warn, and on leave keep the draft 2 minutes.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('docs.editor.leaveTitle'),
      content: t('docs.editor.leaveText'),
      okText: t('docs.editor.leave'),
      cancelText: t('docs.editor.stay'),
      okButtonProps: { danger: true, 'data-testid': 'docs-leave-ok' } as { danger?: boolean },
      onOk: () => saveDraft(id, valueRef.current, true).catch(() => undefined).finally(() => blocker.proceed()),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t, id]);

  if (!(id > 0)) return <NotFoundResult subTitle={t('docs.notFound')} />;
  if (doc.isError) return isHidden(doc.error) ? <Forbidden /> : <NotFoundResult subTitle={t('docs.notFound')} />;
  const d = doc.data;
  if (d && !d.writable) return <Forbidden />;

  const save = async () => {
    setBusy(true);
    const ok = await run(() => saveDocContent(id, valueRef.current), { success: t('docs.editor.saved') });
    setBusy(false);
    if (!ok) return;
    setDirty(false);
    dirtyRef.current = false;
    lastDraft.current = '';
    setRestoredAt(0);
    await qc.invalidateQueries({ queryKey: docsKeys.all });
  };
  const discard = () =>
    void run(() => deleteDraft(id), { success: false }).then((ok) => {
      if (!ok || !d) return;
      setValue(d.content ?? '');
      setDirty(false);
      setRestoredAt(0);
      lastDraft.current = '';
    });

  return (
    <div data-testid="docs-editor">
      <PageHeader
        back={`/manage/docs/detail/${id}`}
        title={d ? t('docs.editor.title', { title: d.title }) : ''}
        sub={
          <Typography.Text type="secondary" data-testid="docs-editor-state">
            {dirty ? t('docs.editor.unsaved') : t('docs.editor.clean')}
            {autosavedAt > 0 && (
              <span data-testid="docs-autosaved">{` · ${t('docs.editor.autosaved', { time: formatTime(autosavedAt) })}`}</span>
            )}
          </Typography.Text>
        }
        extra={
          <Space>
            <Button onClick={() => void navigate(`/manage/docs/detail/${id}`)}>{t('docs.editor.view')}</Button>
            <Button type="primary" loading={busy} disabled={value === undefined} onClick={() => void save()} data-testid="docs-editor-save">
              {t('com_save')}
            </Button>
          </Space>
        }
      />
      {restoredAt > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('docs.editor.restored', { time: formatTime(restoredAt) })}
          action={
            <Button size="small" onClick={discard} data-testid="docs-draft-discard">
              {t('docs.editor.discard')}
            </Button>
          }
          data-testid="docs-draft-restored"
        />
      )}
      <Card size="small" loading={value === undefined}>
        {value !== undefined && (
          <RichTextEditor
            value={value}
            onChange={(html) => {
              setValue(html);
              setDirty(true);
            }}
            images
            minHeight={420}
            placeholder={t('docs.editor.placeholder')}
            testId="docs-editor-rt"
          />
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('docs.editor.hint')}
        </Typography.Paragraph>
      </Card>
    </div>
  );
}
