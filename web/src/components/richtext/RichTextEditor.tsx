/**
 * The console's rich-text editor (TipTap; docs/tickets.md, "Rich-text editor"), used by ticket
 * comments and the docs wiki. A form control: `value` is HTML, `onChange` gets the editor's HTML
 * ('' when empty, so a required rule works). Storage images are inserted as
 * `<img data-key="<objectKey>" src="<signed url>">`; the server keeps the key and signs again.
 *
 * TipTap is heavy: import this file only from lazily loaded pages (never the entry or /login).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Divider, Input, Modal, Tooltip } from 'antd';
import {
  BoldOutlined,
  CodeOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { editorExtensions } from './extensions';
import ImageInsertModal, { type InsertedImage } from './ImageInsertModal';
import './richtext.css';
import { registerTexts } from '../../locales/domains';
import { richtextTexts } from '../../locales/domains/richtext';

registerTexts(richtextTexts);

export interface RichTextEditorProps {
  value?: string; // HTML
  onChange?: (html: string) => void;
  placeholder?: string;
  images?: boolean; // toolbar button "Insert image": ImageInsertModal
  minHeight?: number;
  disabled?: boolean;
  testId?: string;
}

/** The editor's HTML as a form value: '' for an empty document. */
export function htmlOf(editor: Editor): string {
  // Without the empty paragraph the trailing-node extension keeps after a list or a heading
  // (added on the first transaction): it is no content, and no change.
  return editor.isEmpty ? '' : editor.getHTML().replace(/(<p><\/p>)+$/, '');
}

function ToolButton({ title, active, disabled, onClick, icon, testId }: { title: string; active?: boolean; disabled?: boolean; onClick(): void; icon: ReactNode; testId?: string }) {
  return (
    <Tooltip title={title} mouseEnterDelay={0.6}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        ghost={active}
        aria-label={title}
        aria-pressed={active}
        disabled={disabled}
        icon={icon}
        data-testid={testId}
        // Keep the editor's selection: the click must not take the focus first.
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
      />
    </Tooltip>
  );
}

function LinkModal({ open, initial, onClose, onSave }: { open: boolean; initial: string; onClose(): void; onSave(url: string): void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(initial);
  useEffect(() => {
    if (open) setUrl(initial);
  }, [open, initial]);
  return (
    <Modal open={open} title={t('richtext.link')} onCancel={onClose} onOk={() => onSave(url.trim())} okText={t('com_ok')} cancelText={t('com_cancel')} destroyOnHidden>
      <Input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://" onPressEnter={() => onSave(url.trim())} data-testid="richtext-link-url" autoFocus />
    </Modal>
  );
}

export default function RichTextEditor({ value, onChange, placeholder, images, minHeight = 160, disabled, testId }: RichTextEditorProps) {
  const { t } = useTranslation();
  const [imageOpen, setImageOpen] = useState(false);
  const [linkOpen, setLinkOpen] = useState(false);
  // The last HTML this editor reported: a `value` equal to it is the editor's own echo.
  const last = useRef<string>(value ?? '');
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  const editor = useEditor({
    extensions: editorExtensions(),
    content: value ?? '',
    editable: !disabled,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    onUpdate: ({ editor: e, transaction }) => {
      const html = htmlOf(e);
      // A transaction that did not change the document itself (a focus or a selection) but
      // came with appended ones (the trailing-node extension normalising stored HTML: list
      // items get paragraphs, an empty paragraph after a list) is the editor's own form of the
      // text, not a change: a form would mark the field touched, the docs editor unsaved.
      if (!transaction.docChanged || html === last.current) {
        last.current = html;
        return;
      }
      last.current = html;
      changeRef.current?.(html);
    },
  });

  // A value set from outside (a form reset, a loaded draft) replaces the content.
  useEffect(() => {
    const v = value ?? '';
    if (v === last.current) return;
    editor.commands.setContent(v, { emitUpdate: false });
    last.current = htmlOf(editor);
  }, [value, editor]);

  useEffect(() => {
    editor.setEditable(!disabled);
  }, [disabled, editor]);

  const s = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      strike: e.isActive('strike'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      code: e.isActive('codeBlock'),
      link: e.isActive('link'),
      href: (e.getAttributes('link').href as string | undefined) ?? '',
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
      empty: e.isEmpty,
    }),
  });

  const chain = () => editor.chain().focus();
  const insert = (list: InsertedImage[]) => {
    let c = chain();
    for (const img of list) c = c.insertContent({ type: 'image', attrs: { src: img.src, dataKey: img.key } });
    c.run();
  };
  const saveLink = (url: string) => {
    setLinkOpen(false);
    if (!url) chain().extendMarkRange('link').unsetLink().run();
    else chain().extendMarkRange('link').setLink({ href: url }).run();
  };
  const heading = (level: 1 | 2 | 3, active: boolean) => (
    <Tooltip key={level} title={t('richtext.heading', { level })} mouseEnterDelay={0.6}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        ghost={active}
        aria-label={t('richtext.heading', { level })}
        aria-pressed={active}
        disabled={disabled}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => chain().toggleHeading({ level }).run()}
        style={{ fontWeight: 600, width: 28 }}
      >
        H{level}
      </Button>
    </Tooltip>
  );

  return (
    <div className={`rt-editor${disabled ? ' rt-disabled' : ''}`} data-testid={testId}>
      <div className="rt-toolbar" role="toolbar" aria-label={t('richtext.toolbar')}>
        <ToolButton title={t('richtext.bold')} active={s.bold} disabled={disabled} icon={<BoldOutlined />} onClick={() => chain().toggleBold().run()} />
        <ToolButton title={t('richtext.italic')} active={s.italic} disabled={disabled} icon={<ItalicOutlined />} onClick={() => chain().toggleItalic().run()} />
        <ToolButton title={t('richtext.strike')} active={s.strike} disabled={disabled} icon={<StrikethroughOutlined />} onClick={() => chain().toggleStrike().run()} />
        <Divider type="vertical" style={{ height: 'auto', margin: '4px 2px' }} />
        {heading(1, s.h1)}
        {heading(2, s.h2)}
        {heading(3, s.h3)}
        <Divider type="vertical" style={{ height: 'auto', margin: '4px 2px' }} />
        <ToolButton title={t('richtext.bulletList')} active={s.bullet} disabled={disabled} icon={<UnorderedListOutlined />} onClick={() => chain().toggleBulletList().run()} />
        <ToolButton title={t('richtext.orderedList')} active={s.ordered} disabled={disabled} icon={<OrderedListOutlined />} onClick={() => chain().toggleOrderedList().run()} />
        <ToolButton
          title={t('richtext.blockquote')}
          active={s.quote}
          disabled={disabled}
          icon={<span style={{ fontWeight: 700, fontSize: 16, lineHeight: 1 }}>“</span>}
          onClick={() => chain().toggleBlockquote().run()}
        />
        <ToolButton title={t('richtext.codeBlock')} active={s.code} disabled={disabled} icon={<CodeOutlined />} onClick={() => chain().toggleCodeBlock().run()} />
        <ToolButton title={t('richtext.link')} active={s.link} disabled={disabled} icon={<LinkOutlined />} onClick={() => setLinkOpen(true)} testId={testId && `${testId}-link`} />
        {images && <ToolButton title={t('richtext.image')} disabled={disabled} icon={<PictureOutlined />} onClick={() => setImageOpen(true)} testId={testId ? `${testId}-image` : 'richtext-image'} />}
        <Divider type="vertical" style={{ height: 'auto', margin: '4px 2px' }} />
        <ToolButton title={t('richtext.undo')} disabled={disabled || !s.canUndo} icon={<UndoOutlined />} onClick={() => chain().undo().run()} />
        <ToolButton title={t('richtext.redo')} disabled={disabled || !s.canRedo} icon={<RedoOutlined />} onClick={() => chain().redo().run()} />
      </div>
      <div className="rt-content rt-body" style={{ minHeight }}>
        {s.empty && placeholder && <div className="rt-placeholder">{placeholder}</div>}
        <EditorContent editor={editor} style={{ minHeight: minHeight - 16 }} data-testid={testId && `${testId}-content`} />
      </div>
      <LinkModal open={linkOpen} initial={s.href} onClose={() => setLinkOpen(false)} onSave={saveLink} />
      {images && <ImageInsertModal open={imageOpen} onClose={() => setImageOpen(false)} onInsert={insert} />}
    </div>
  );
}
