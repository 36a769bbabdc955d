import { CopyOutlined } from '@ant-design/icons';
import { Button, Space, Switch, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TextKey, textOf } from '../../platform/i18n/text-key.ts';

/** Blocks of the detail drawer: tags, pretty JSON, a monospace stack with copy, the before/after table. */

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return status === 1 ? (
    <Tag color="success">{t('log.success')}</Tag>
  ) : (
    <Tag color="error">{t('log.failure')}</Tag>
  );
}

/** 200 is success; a catalogue code (D…) is a refused request; anything else a fault. */
export function CodeTag({ code }: { code: string | null }) {
  if (!code) return null;
  const color = code === '200' ? 'success' : /^[A-Z]/.test(code) ? 'warning' : 'error';
  return <Tag color={color}>{code}</Tag>;
}

const METHOD_COLORS: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', DELETE: 'red' };
export function MethodTag({ method }: { method: string | null }) {
  if (!method) return null;
  return <Tag color={METHOD_COLORS[method.toUpperCase()] ?? 'default'}>{method.toUpperCase()}</Tag>;
}

const ACTION_KEYS: Record<string, { key: TextKey; color: string }> = {
  login: { key: 'log.actionLogin', color: 'processing' },
  logout: { key: 'log.actionLogout', color: 'default' },
  loginFail: { key: 'log.actionLoginFail', color: 'error' },
};
export function visitActionLabel(action: string, t: TFunction): string {
  const known = ACTION_KEYS[action];
  return known ? textOf(t, known.key) : action;
}
export function VisitActionTag({ action }: { action: string }) {
  const { t } = useTranslation();
  return <Tag color={ACTION_KEYS[action]?.color ?? 'default'}>{visitActionLabel(action, t)}</Tag>;
}

const OPERATION_KEYS: Record<string, { key: TextKey; color: string }> = {
  add: { key: 'log.opAdd', color: 'success' },
  update: { key: 'log.opUpdate', color: 'processing' },
  delete: { key: 'log.opDelete', color: 'error' },
};
export function operationLabel(operation: string, t: TFunction): string {
  const known = OPERATION_KEYS[operation];
  return known ? textOf(t, known.key) : operation;
}
export function OperationTag({ operation }: { operation: string }) {
  const { t } = useTranslation();
  return <Tag color={OPERATION_KEYS[operation]?.color ?? 'default'}>{operationLabel(operation, t)}</Tag>;
}

/** Slow answers stand out: orange from 1 s, red from 3 s. */
export function Elapsed({ ms }: { ms: number | null }) {
  if (ms === null || ms === undefined) return null;
  const type = ms >= 3000 ? 'danger' : ms >= 1000 ? 'warning' : undefined;
  return <Typography.Text type={type}>{ms} ms</Typography.Text>;
}

/** An account with the person's name after it. */
export function Who({ account, realName }: { account: string | null; realName: string | null }) {
  if (!account && !realName) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <span>
      {account}
      {realName && realName !== account ? (
        <Typography.Text type="secondary" style={{ marginInlineStart: 6 }}>
          {realName}
        </Typography.Text>
      ) : null}
    </span>
  );
}

/** JSON text indented for reading; anything that does not parse is shown as it is. */
export function prettyJson(text: string | null | undefined): string {
  if (text === null || text === undefined || text === '') return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A monospace block with a copy button, for JSON parameters and stacks. */
export function CodeBlock({
  text,
  maxHeight = 360,
  testId,
}: {
  text: string | null | undefined;
  maxHeight?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [copied, setCopied] = useState(false);
  if (!text) return <Typography.Text type="secondary">{t('log.none')}</Typography.Text>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div style={{ position: 'relative' }}>
      <pre
        data-testid={testId}
        style={{
          margin: 0,
          padding: '8px 40px 8px 12px',
          maxHeight,
          overflow: 'auto',
          fontFamily: MONO,
          fontSize: 12,
          lineHeight: 1.6,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          background: token.colorFillQuaternary,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
        }}
      >
        {text}
      </pre>
      <Tooltip title={copied ? t('log.copied') : t('log.copy')}>
        <Button
          size="small"
          type="text"
          icon={<CopyOutlined />}
          aria-label={t('log.copy')}
          onClick={() => void copy()}
          style={{ position: 'absolute', top: 4, right: 4 }}
          data-testid={testId ? `${testId}-copy` : undefined}
        />
      </Tooltip>
    </div>
  );
}

export type DiffRow = { field: string; before: unknown; after: unknown; changed: boolean };

function parseObject(text: string | null | undefined): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Field-by-field rows of a diff log: every field of either side, the changed ones first and marked. The server's
 * list of changed fields wins; without one, a field is changed when its two values differ.
 */
export function diffRows(
  beforeData: string | null | undefined,
  afterData: string | null | undefined,
  changedFields?: string | null,
): DiffRow[] {
  const before = parseObject(beforeData) ?? {};
  const after = parseObject(afterData) ?? {};
  const listed = (changedFields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const differs = (field: string) => JSON.stringify(before[field]) !== JSON.stringify(after[field]);
  const rows = fields.map((field) => ({
    field,
    before: before[field],
    after: after[field],
    changed: listed.length > 0 ? listed.includes(field) : differs(field),
  }));
  // Changed fields first, so the change is in sight without scrolling; otherwise the row's own order.
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}

function DiffValue({ value }: { value: unknown }) {
  if (value === undefined || value === null)
    return <Typography.Text type="secondary">{value === null ? 'null' : '—'}</Typography.Text>;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return <span style={{ fontFamily: MONO, fontSize: 12, wordBreak: 'break-all' }}>{text}</span>;
}

/** Before and after side by side; changed fields are highlighted, and can be shown alone. */
export function DiffView({
  beforeData,
  afterData,
  changedFields,
}: {
  beforeData: string | null;
  afterData: string | null;
  changedFields: string | null;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const rows = diffRows(beforeData, afterData, changedFields);
  const changedCount = rows.filter((r) => r.changed).length;
  const [onlyChanged, setOnlyChanged] = useState(false);
  const shown = onlyChanged ? rows.filter((r) => r.changed) : rows;
  return (
    <div data-testid="log-diff">
      <Space style={{ marginBottom: 8, justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text type="secondary">{t('log.changedCount', { count: changedCount })}</Typography.Text>
        <Space size={6}>
          <Switch size="small" checked={onlyChanged} onChange={setOnlyChanged} data-testid="log-diff-only" />
          <Typography.Text>{t('log.onlyChanged')}</Typography.Text>
        </Space>
      </Space>
      <Table<DiffRow>
        size="small"
        bordered
        rowKey="field"
        pagination={false}
        dataSource={shown}
        scroll={{ y: 420 }}
        tableLayout="fixed"
        onRow={(row) => ({
          'data-changed': row.changed ? 'true' : 'false',
          style: row.changed ? { background: token.colorWarningBg } : undefined,
        })}
        columns={[
          {
            key: 'field',
            dataIndex: 'field',
            title: t('log.field'),
            width: 150,
            render: (field: string, row) => (
              <Space size={4} wrap>
                <span style={{ fontFamily: MONO, fontSize: 12 }}>{field}</span>
                {row.changed ? (
                  <Tag color="warning" style={{ marginInlineEnd: 0 }}>
                    {t('log.changed')}
                  </Tag>
                ) : null}
              </Space>
            ),
          },
          {
            key: 'before',
            dataIndex: 'before',
            title: t('log.before'),
            render: (value: unknown, row) => (
              <span
                style={row.changed ? { color: token.colorError, textDecoration: 'line-through' } : undefined}
              >
                <DiffValue value={value} />
              </span>
            ),
          },
          {
            key: 'after',
            dataIndex: 'after',
            title: t('log.after'),
            render: (value: unknown, row) => (
              <span style={row.changed ? { color: token.colorSuccess, fontWeight: 500 } : undefined}>
                <DiffValue value={value} />
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}

/** A label for a drawer section. */
export function Section({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div style={{ marginTop: 20 }}>
      <Typography.Title level={5} style={{ marginBottom: 8 }}>
        {title}
      </Typography.Title>
      {children}
    </div>
  );
}
