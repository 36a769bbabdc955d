export { RichTextEditor, type RichTextEditorProps } from './rich-text-editor.tsx';
export { RichTextView } from './rich-text-view.tsx';
