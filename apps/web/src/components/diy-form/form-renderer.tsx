import type { FormField, RecordValues } from '@shuzhi/contracts/diy-form';
import { LAYOUT_TYPES } from '@shuzhi/contracts/diy-form';
import {
  type FieldErrors,
  type Filler,
  rowDefaultValues,
  validateRecord,
} from '@shuzhi/contracts/diy-validate';
import { fileDownloadUrl } from '@shuzhi/contracts/file';
import { Col, ConfigProvider, Divider, Form, Row, Typography } from 'antd';
import {
  type ReactNode,
  type Ref,
  type RefObject,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { toLocale } from '../../platform/i18n/language.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { wallClockNow } from '../../platform/time/time-zone.ts';
import { useFilePreview } from '../file-preview/file-preview.tsx';
import type { FormFile } from './diy-form.api.ts';
import {
  applyChange,
  computeRecord,
  type Design,
  type ErrorMessage,
  errorMessages,
  errorText,
  isShown,
  newRecordValues,
  type ServerErrors,
  type ShownError,
  useDictOptions,
} from './diy-form.model.ts';
import styles from './diy-form.module.css';
import { FieldInput } from './field-input.tsx';
import { FieldView } from './field-view.tsx';
import { type FileOpener, rememberFile } from './file-field.tsx';
import { SubTable } from './sub-table.tsx';

/** The result of the full check before a submit (or a draft save). */
export type FormCheck = {
  ok: boolean;
  /** The record as the server will store it: normalised, formulas computed, hidden fields empty. */
  values: RecordValues;
  errors: FieldErrors;
  /** Every error with its full label (`明细 第2行 数量不能为空`), in the design's order. */
  messages: ErrorMessage[];
};

/** What the page can ask of a rendered form. */
export type FormRendererHandle = {
  /** Runs the contract's `validateRecord` on the current values, shows every error and scrolls to the first. */
  check(mode?: 'submit' | 'draft'): FormCheck;
  /** Shows errors the server answered (by path), the same way as the browser's. */
  showErrors(errors: ServerErrors): void;
  clearErrors(): void;
};

export type FormRendererProps = {
  design: Design;
  values: RecordValues;
  onChange?: (values: RecordValues, path: string) => void;
  mode?: 'edit' | 'view';
  /** Errors by path from the server; each clears when its field changes. */
  errors?: ServerErrors;
  /** Who fills: with `isNew`, the record starts with the design's defaults for this filler. */
  filler?: Filler;
  isNew?: boolean;
  /** Periodic forms: the first day of the record's period (a new one's: where it is filed), for `period` defaults. */
  periodStart?: string | null;
  width?: 'desktop' | 'phone';
  disabled?: boolean;
  /** The record's display labels by field id (dictionary labels, region, org and user names). */
  labels?: Record<string, string>;
  /** A saved record: names of its files come from its file list. */
  recordId?: number | null;
  /** Names of files the record holds, when the page has them (uploads of this browser are known anyway). */
  files?: readonly FormFile[];
  /** Opens an attachment; by default the file preview dialog. */
  onOpenFile?: FileOpener;
  /** Prefix of DOM ids, when two forms share a page. */
  idPrefix?: string;
  /** Shown when the design has no field to show (the designer's hint). */
  empty?: ReactNode;
  ref?: Ref<FormRendererHandle>;
};

/**
 * Errors the server answered are shown on the next render; then the first of them (design order) is brought into
 * view. Answers the function that does it for errors pushed later (`showErrors`).
 */
function useRevealErrors(
  rootRef: RefObject<HTMLDivElement | null>,
  errors: ServerErrors | undefined,
  ordered: (errors: Record<string, ShownError>) => ErrorMessage[],
) {
  const [reveal, setReveal] = useState<{ path: string } | null>(null);
  const revealLater = useCallback(
    (shown: ServerErrors | undefined) => {
      const first = shown ? ordered(shown)[0]?.path : undefined;
      if (first) setReveal({ path: first });
    },
    [ordered],
  );
  const revealRef = useRef(revealLater);
  revealRef.current = revealLater;
  useEffect(() => revealRef.current(errors), [errors]);
  useEffect(() => {
    if (reveal) revealField(rootRef.current, reveal.path);
  }, [reveal, rootRef]);
  return revealLater;
}

/** A section title (with its subtitle) or a static text: layout only, no value. */
function LayoutItem({ field, span }: { field: FormField; span: number }) {
  if (field.type === 'section') {
    return (
      <Col span={24} data-testid={`diy-field-${field.id}`}>
        <Divider titlePlacement="start" style={{ marginBlock: '8px 12px' }}>
          <Typography.Text strong>{field.label}</Typography.Text>
        </Divider>
        {field.content ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: -4, whiteSpace: 'pre-wrap' }}>
            {field.content}
          </Typography.Paragraph>
        ) : null}
      </Col>
    );
  }
  return (
    <Col span={span} data-testid={`diy-field-${field.id}`}>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 16 }}>
        {field.content || field.label}
      </Typography.Paragraph>
    </Col>
  );
}

/** The check the renderer runs, for pages that need it without a rendered form. */
function useFormCheck(design: Design) {
  const { t } = useTranslation();
  const dictOptions = useDictOptions();
  const locale = toLocale(useThemeStore((s) => s.globalI18n));
  const regexCache = useMemo(() => new Map<string, RegExp | null>(), []);
  const rowWord = useCallback((n: number) => t('diyFormRenderer.rowWord', { n }), [t]);
  const check = useCallback(
    (values: RecordValues, mode: 'submit' | 'draft' = 'submit'): FormCheck => {
      const result = validateRecord(design, values, { mode, dictOptions, regexCache });
      return {
        ok: Object.keys(result.errors).length === 0,
        values: result.values,
        errors: result.errors,
        messages: errorMessages(design, result.errors, locale, rowWord),
      };
    },
    [design, dictOptions, regexCache, locale, rowWord],
  );
  const messages = useCallback(
    (errors: Record<string, ShownError>) => errorMessages(design, errors, locale, rowWord),
    [design, locale, rowWord],
  );
  return { check, messages, locale, dictOptions, regexCache };
}

/**
 * Brings a field into view and puts the cursor in it (the first error after a check or a refused submit).
 * `center` keeps it clear of a sticky submit bar at the bottom of a phone's screen.
 */
function revealField(root: HTMLElement | null, path: string | undefined) {
  if (!root || !path) return;
  const element = root.querySelector<HTMLElement>(`[data-field-path="${path}"]`);
  element?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  element
    ?.querySelector<HTMLElement>('input:not([type="file"]), textarea, [contenteditable="true"], button')
    ?.focus?.({ preventScroll: true });
}

const rowsOf = (value: unknown): RecordValues[] =>
  Array.isArray(value) ? value.filter((r): r is RecordValues => !!r && typeof r === 'object') : [];

/**
 * A report form on screen (issue 5 §1, §3): the design's 24-column grid, every field type's widget, live
 * show-when and formulas, and field errors under the fields — the browser's own check when a field is left
 * and on submit, the server's by path — all from the rules of `@shuzhi/contracts/diy-validate`. View mode
 * shows the values as text. The designer's canvas and preview, the filling page and the record view use it.
 */
export function FormRenderer(props: FormRendererProps) {
  const { design, values, mode = 'edit', width = 'desktop', disabled, idPrefix = 'diy-' } = props;
  const {
    check: runCheck,
    messages: orderedMessages,
    locale,
    dictOptions,
    regexCache,
  } = useFormCheck(design);
  const phone = width === 'phone';
  const editing = mode === 'edit';

  for (const file of props.files ?? []) rememberFile(file);

  // Attachments open in the preview dialog (pdf, sheets, documents; a download offer for the rest).
  const filePreview = useFilePreview();
  const openFile: FileOpener = useCallback(
    (file) =>
      (
        props.onOpenFile ?? ((f) => filePreview.preview({ url: fileDownloadUrl(f.id), fileName: f.fileName }))
      )(file),
    [props.onOpenFile, filePreview.preview],
  );

  // The latest values, also between a change and the parent's next render (a blur right after a change).
  const latest = useRef(values);
  latest.current = values;

  const computed = useMemo(
    () => computeRecord(design, values, { dictOptions }),
    [design, values, dictOptions],
  );

  const [client, setClient] = useState<FieldErrors>({});
  const [pushed, setPushed] = useState<ServerErrors>({});
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  // biome-ignore lint/correctness/useExhaustiveDependencies: new server errors show again.
  useEffect(() => setDismissed(new Set()), [props.errors]);
  const server = useMemo(() => ({ ...pushed, ...props.errors }), [pushed, props.errors]);

  // A new record starts with the design's defaults for the filler (once).
  const seeded = useRef(false);
  const { isNew, filler, onChange, periodStart } = props;
  useEffect(() => {
    if (seeded.current || !isNew || !filler || !editing) return;
    seeded.current = true;
    const start = { ...newRecordValues(design, filler, undefined, periodStart), ...latest.current };
    latest.current = start;
    onChange?.(start, '');
  }, [isNew, filler, editing, design, onChange, periodStart]);

  const validateNow = useCallback(
    (current: RecordValues) =>
      validateRecord(design, current, { mode: 'submit', dictOptions, regexCache }).errors,
    [design, dictOptions, regexCache],
  );

  /** Re-checks the given paths, and every error already shown (it clears once fixed or hidden). */
  const recheck = useCallback(
    (paths: string[], current: RecordValues) => {
      setClient((previous) => {
        if (paths.length === 0 && Object.keys(previous).length === 0) return previous;
        const found = validateNow(current);
        const next: FieldErrors = {};
        for (const path of [...Object.keys(previous), ...paths]) {
          const error = found[path];
          if (error) next[path] = error;
        }
        return next;
      });
    },
    [validateNow],
  );

  const dismiss = useCallback(
    (match: (path: string) => boolean) => {
      setDismissed((previous) => {
        const next = new Set(previous);
        for (const path of Object.keys(server)) if (match(path)) next.add(path);
        return next;
      });
    },
    [server],
  );

  const emit = (next: RecordValues, path: string) => {
    latest.current = next;
    props.onChange?.(next, path);
  };

  const setField = (field: string, value: unknown) => {
    const next = applyChange(design, latest.current, { field, value }, { dictOptions });
    emit(next, field);
    dismiss((p) => p === field);
    recheck([], next);
  };
  const setCell = (field: string, row: number, column: string, value: unknown) => {
    const next = applyChange(design, latest.current, { field, row, column, value }, { dictOptions });
    const path = `${field}[${row}].${column}`;
    emit(next, path);
    dismiss((p) => p === path);
    recheck([], next);
  };
  const setRows = (field: string, rows: RecordValues[]) => {
    const next = applyChange(design, latest.current, { field, rows }, { dictOptions });
    emit(next, field);
    // Row numbers moved: errors of rows no longer point at the same row.
    dismiss((p) => p === field || p.startsWith(`${field}[`));
    setClient((previous) => {
      const kept: FieldErrors = {};
      for (const [p, e] of Object.entries(previous)) if (!p.startsWith(`${field}[`)) kept[p] = e;
      return kept;
    });
    recheck(field in client ? [field] : [], next);
  };
  const blur = (path: string) => recheck([path], latest.current);

  const rootRef = useRef<HTMLDivElement>(null);
  const revealLater = useRevealErrors(rootRef, props.errors, orderedMessages);
  useImperativeHandle(
    props.ref,
    () => ({
      check(checkMode = 'submit') {
        const result = runCheck(latest.current, checkMode);
        setClient(result.errors);
        setPushed({});
        setDismissed(new Set(Object.keys(props.errors ?? {})));
        revealField(rootRef.current, result.messages[0]?.path);
        return result;
      },
      showErrors(errors) {
        setPushed(errors);
        setDismissed(new Set());
        revealLater(errors);
      },
      clearErrors() {
        setClient({});
        setPushed({});
        setDismissed(new Set(Object.keys(props.errors ?? {})));
      },
    }),
    [runCheck, props.errors, revealLater],
  );

  const errorOf = (path: string, label: string): string | undefined => {
    const error: ShownError | undefined = client[path] ?? (dismissed.has(path) ? undefined : server[path]);
    return error ? errorText(error, label, locale) : undefined;
  };

  const labelWidth = design.labelWidth ?? 120;
  const fields = design.fields.filter((f) => isShown(f, values));

  return (
    <div
      ref={rootRef}
      data-testid="diy-form"
      data-width={width}
      className={phone ? `diy-form ${styles.phone}` : 'diy-form'}
    >
      <ConfigProvider componentSize={phone && editing ? 'large' : undefined}>
        <Form
          component={false}
          layout={phone ? 'vertical' : 'horizontal'}
          labelCol={phone ? undefined : { flex: `${labelWidth}px` }}
          wrapperCol={phone ? undefined : { flex: '1 1 0', style: { minWidth: 0 } }}
          labelWrap
          colon={false}
          disabled={disabled}
        >
          <Row gutter={phone ? 0 : 16}>
            {fields.map((field) => {
              const span = phone ? 24 : (field.span ?? 24);
              const id = `${idPrefix}${field.id}`;
              if (field.type === 'section' || field.type === 'staticText') {
                return <LayoutItem key={field.id} field={field} span={span} />;
              }
              if (LAYOUT_TYPES.includes(field.type)) return null;
              const error = editing ? errorOf(field.id, field.label) : undefined;
              const value = field.type === 'formula' ? (computed[field.id] ?? null) : values[field.id];
              const body =
                field.type === 'subTable' ? (
                  <SubTable
                    field={field as FormField}
                    rows={rowsOf(values[field.id])}
                    computedRows={rowsOf(computed[field.id])}
                    record={values}
                    mode={mode}
                    disabled={disabled}
                    onRowsChange={(rows) => setRows(field.id, rows)}
                    newRow={
                      filler ? () => rowDefaultValues(field, filler, wallClockNow(), periodStart) : undefined
                    }
                    onCellChange={(row, column, next) => setCell(field.id, row, column, next)}
                    onCellBlur={blur}
                    errorOf={(path, label) => (editing ? errorOf(path, label) : undefined)}
                    recordId={props.recordId}
                    onOpenFile={openFile}
                    idPrefix={idPrefix}
                    phone={phone}
                  />
                ) : editing ? (
                  <FieldInput
                    field={field}
                    value={value}
                    id={id}
                    invalid={!!error}
                    disabled={disabled}
                    onChange={(next) => setField(field.id, next)}
                    onBlur={() => blur(field.id)}
                    recordId={props.recordId}
                    onOpenFile={openFile}
                    phone={phone}
                  />
                ) : (
                  <FieldView
                    field={field}
                    value={value}
                    id={id}
                    label={props.labels?.[field.id]}
                    recordId={props.recordId}
                    onOpenFile={openFile}
                  />
                );
              return (
                <Col
                  span={field.type === 'subTable' ? 24 : span}
                  key={field.id}
                  data-testid={`diy-field-${field.id}`}
                >
                  <Form.Item
                    label={field.label}
                    htmlFor={id}
                    required={editing && field.required && field.type !== 'formula'}
                    tooltip={field.help || undefined}
                    validateStatus={error ? 'error' : undefined}
                    help={error ? <span data-testid={`diy-error-${id}`}>{error}</span> : undefined}
                    layout={field.type === 'subTable' || phone ? 'vertical' : undefined}
                    labelCol={field.type === 'subTable' || phone ? { span: 24 } : undefined}
                    wrapperCol={field.type === 'subTable' || phone ? { span: 24 } : undefined}
                    style={{ marginBottom: 16 }}
                    className={editing ? undefined : 'diy-form-view-item'}
                  >
                    <div data-field-path={field.id}>{body}</div>
                  </Form.Item>
                </Col>
              );
            })}
          </Row>
        </Form>
      </ConfigProvider>
      {fields.length === 0 && props.empty ? props.empty : null}
      {filePreview.element}
    </div>
  );
}
