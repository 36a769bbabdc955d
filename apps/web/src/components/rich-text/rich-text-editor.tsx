import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Input, Popover, Space, Tooltip } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './rich-text.module.css';

/** An empty document as the editor writes it; treated as no content. */
const EMPTY = '<p></p>';
const SAFE_LINK = /^(https?:\/\/|mailto:|tel:|\/)/i;

export type RichTextEditorProps = {
  /** HTML; the server sanitises whatever is saved. */
  value?: string;
  onChange?(html: string): void;
  placeholder?: string;
  disabled?: boolean;
  /** Minimum height of the writing area in px. */
  minHeight?: number;
  'aria-label'?: string;
  'data-testid'?: string;
};

type ToolProps = {
  label: string;
  icon: ReactNode;
  active?: boolean;
  disabled?: boolean;
  onClick(): void;
  testId: string;
};

function Tool({ label, icon, active, disabled, onClick, testId }: ToolProps) {
  return (
    <Tooltip title={label} mouseEnterDelay={0.4}>
      <Button
        type={active ? 'primary' : 'text'}
        ghost={active}
        size="small"
        icon={icon}
        aria-label={label}
        aria-pressed={active}
        disabled={disabled}
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
        data-testid={`rte-${testId}`}
      />
    </Tooltip>
  );
}

function LinkTool({ editor, disabled }: { editor: Editor; disabled: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const [invalid, setInvalid] = useState(false);
  const active = editor.isActive('link');
  const show = (next: boolean) => {
    if (next) {
      setHref((editor.getAttributes('link').href as string | undefined) ?? '');
      setInvalid(false);
    }
    setOpen(next);
  };
  const apply = () => {
    const url = href.trim();
    if (url === '') {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
      setOpen(false);
      return;
    }
    if (!SAFE_LINK.test(url)) {
      setInvalid(true);
      return;
    }
    editor.chain().focus().extendMarkRange('link').setLink({ href: url, target: '_blank' }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={show}
      trigger="click"
      content={
        <Space orientation="vertical" size={6} style={{ width: 300 }}>
          <Input
            autoFocus
            value={href}
            status={invalid ? 'error' : undefined}
            placeholder="https://"
            onChange={(e) => {
              setHref(e.target.value);
              setInvalid(false);
            }}
            onPressEnter={apply}
            aria-label={t('richText.linkUrl')}
            data-testid="rte-link-input"
          />
          {invalid ? <span className={styles.error}>{t('richText.linkInvalid')}</span> : null}
          <Space>
            <Button type="primary" size="small" onClick={apply} data-testid="rte-link-ok">
              {t('common.ok')}
            </Button>
            {active ? (
              <Button
                size="small"
                onClick={() => {
                  editor.chain().focus().extendMarkRange('link').unsetLink().run();
                  setOpen(false);
                }}
              >
                {t('richText.unlink')}
              </Button>
            ) : null}
          </Space>
        </Space>
      }
    >
      <span>
        <Tool
          label={t('richText.link')}
          icon={<LinkOutlined />}
          active={active}
          disabled={disabled}
          onClick={() => show(!open)}
          testId="link"
        />
      </span>
    </Popover>
  );
}

function Toolbar({ editor, disabled }: { editor: Editor; disabled: boolean }) {
  const { t } = useTranslation();
  // Re-render on selection and content changes, so the active states follow the caret.
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const heading = (level: 1 | 2 | 3) => (
    <Tool
      key={level}
      label={t(`richText.h${level}`)}
      icon={<span className={styles.heading}>H{level}</span>}
      active={state[`h${level}`]}
      disabled={disabled}
      onClick={() => chain().toggleHeading({ level }).run()}
      testId={`h${level}`}
    />
  );
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t('richText.toolbar')}>
      <Tool
        label={t('richText.bold')}
        icon={<BoldOutlined />}
        active={state.bold}
        disabled={disabled}
        onClick={() => chain().toggleBold().run()}
        testId="bold"
      />
      <Tool
        label={t('richText.italic')}
        icon={<ItalicOutlined />}
        active={state.italic}
        disabled={disabled}
        onClick={() => chain().toggleItalic().run()}
        testId="italic"
      />
      <Tool
        label={t('richText.underline')}
        icon={<UnderlineOutlined />}
        active={state.underline}
        disabled={disabled}
        onClick={() => chain().toggleUnderline().run()}
        testId="underline"
      />
      <Tool
        label={t('richText.strike')}
        icon={<StrikethroughOutlined />}
        active={state.strike}
        disabled={disabled}
        onClick={() => chain().toggleStrike().run()}
        testId="strike"
      />
      <Divider orientation="vertical" />
      {heading(1)}
      {heading(2)}
      {heading(3)}
      <Divider orientation="vertical" />
      <Tool
        label={t('richText.bulletList')}
        icon={<UnorderedListOutlined />}
        active={state.bullet}
        disabled={disabled}
        onClick={() => chain().toggleBulletList().run()}
        testId="bullet"
      />
      <Tool
        label={t('richText.orderedList')}
        icon={<OrderedListOutlined />}
        active={state.ordered}
        disabled={disabled}
        onClick={() => chain().toggleOrderedList().run()}
        testId="ordered"
      />
      <Tool
        label={t('richText.quote')}
        icon={<span className={styles.quote}>”</span>}
        active={state.quote}
        disabled={disabled}
        onClick={() => chain().toggleBlockquote().run()}
        testId="quote"
      />
      <LinkTool editor={editor} disabled={disabled} />
      <Divider orientation="vertical" />
      <Tool
        label={t('richText.undo')}
        icon={<UndoOutlined />}
        disabled={disabled || !state.canUndo}
        onClick={() => chain().undo().run()}
        testId="undo"
      />
      <Tool
        label={t('richText.redo')}
        icon={<RedoOutlined />}
        disabled={disabled || !state.canRedo}
        onClick={() => chain().redo().run()}
        testId="redo"
      />
      <Tool
        label={t('richText.clear')}
        icon={<ClearOutlined />}
        disabled={disabled}
        onClick={() => chain().unsetAllMarks().clearNodes().run()}
        testId="clear"
      />
    </div>
  );
}

/**
 * A rich-text editor (tiptap) usable as a Form.Item control: bold, italic, underline, strike, headings 1–3,
 * lists, quote, link, undo/redo and clear formatting, with translated tooltips. `value` is HTML; an empty
 * document gives ''.
 */
export function RichTextEditor({
  value,
  onChange,
  placeholder,
  disabled = false,
  minHeight = 220,
  'aria-label': ariaLabel,
  'data-testid': testId = 'rich-text',
}: RichTextEditorProps) {
  const valueRef = useRef(value);
  valueRef.current = value;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        codeBlock: false,
        trailingNode: false,
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto', 'tel'] },
      }),
    ],
    content: value ?? '',
    editable: !disabled,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        class: styles.content ?? '',
        role: 'textbox',
        'aria-multiline': 'true',
        ...(ariaLabel ? { 'aria-label': ariaLabel } : {}),
        'data-testid': `${testId}-content`,
        style: `min-height:${minHeight}px`,
      },
    },
    // Only a change of the text is a change: the editor also reports updates that leave the document as it
    // was (as it settles after opening), which would otherwise validate an untouched form field.
    onUpdate: ({ editor: e }) => {
      const html = e.getHTML();
      const next = html === EMPTY ? '' : html;
      if (next === (valueRef.current ?? '')) return;
      valueRef.current = next;
      onChange?.(next);
    },
  });

  // A value set from outside (a record loaded, the form reset) replaces the document.
  // An editor that was destroyed (its field remounted or hidden) has no schema any more: leave it alone.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.getHTML();
    const next = value ?? '';
    if (next !== current && !(next === '' && current === EMPTY)) {
      editor.commands.setContent(next, { emitUpdate: false });
    }
  }, [editor, value]);

  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!disabled);
  }, [editor, disabled]);

  const empty = !value || value === EMPTY;
  return (
    <div className={`${styles.editor} ${disabled ? styles.disabled : ''}`} data-testid={testId}>
      {editor ? <Toolbar editor={editor} disabled={disabled} /> : null}
      <div className={styles.body}>
        {empty && placeholder ? <div className={styles.placeholder}>{placeholder}</div> : null}
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
