export { DesignPreview, type DesignPreviewProps, type PreviewWidth } from './design-preview.tsx';
export type { FormFile, PickerKind, PickOption } from './diy-form.api.ts';
export {
  applyChange,
  cellPath,
  type Design,
  type ErrorMessage,
  errorMessages,
  newRecordValues,
  type ServerErrors,
  type ShownError,
  serverFieldErrors,
  useDictOptions,
} from './diy-form.model.ts';
export { FieldInput } from './field-input.tsx';
export { FieldView } from './field-view.tsx';
export type { FileOpener } from './file-field.tsx';
export {
  type FormCheck,
  FormRenderer,
  type FormRendererHandle,
  type FormRendererProps,
  useFormCheck,
} from './form-renderer.tsx';
