import { PrinterOutlined } from '@ant-design/icons';
import type { FormField } from '@shuzhi/contracts/diy-form';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { valueText } from '../../components/diy-record/record-format.ts';
import { useSummaryWords } from '../../components/diy-record/record-history.tsx';
import { PublicPageFrame } from './public-page-frame.tsx';
import { type PublicStatement, publicPageApi } from './public-pages.api.ts';

/** On paper: no buttons or hints, the table across the page, rows never split. */
const PRINT_CSS = `
@media print {
  .no-print { display: none !important; }
  .public-page { padding: 0 !important; background: #fff !important; min-height: 0 !important; }
  .public-page .ant-card { box-shadow: none !important; border: none !important; max-width: none !important; }
  .statement-table { font-size: 11pt; }
  .statement-table tr { break-inside: avoid; }
}
.statement-table { width: 100%; border-collapse: collapse; }
.statement-table th, .statement-table td {
  border: 1px solid var(--ant-color-border, #d9d9d9); padding: 6px 8px; text-align: left; vertical-align: top;
  word-break: break-word;
}
.statement-table th { background: var(--ant-color-fill-alter, #fafafa); font-weight: 600; }
@media screen and (max-width: 767px) { .statement-table-wrap { display: none; } }
@media print, (min-width: 768px) { .statement-cards { display: none !important; } }
`;

type Row = PublicStatement['records'][number];

function useCellText() {
  const words = useSummaryWords();
  return (field: FormField, row: Row) => valueText(field, row.values[field.id], row.labels[field.id], words);
}

/** Many records: a table on a desktop and on paper, a card per record on a phone's screen (print CSS). */
function Records({ statement }: { statement: PublicStatement }) {
  const { t } = useTranslation();
  const cell = useCellText();
  if (statement.records.length === 0) return <Empty description={t('publicPages.noRecords')} />;
  return (
    <>
      <Typography.Paragraph>
        {t('publicPages.recordCount', { count: statement.records.length })}
        {statement.truncated ? ` · ${t('publicPages.truncated', { count: statement.records.length })}` : ''}
      </Typography.Paragraph>
      <Flex vertical gap={8} className="statement-cards" data-testid="statement-cards">
        {statement.records.map((row, i) => (
          <Card key={row.id} size="small" title={row.dataNo ?? String(i + 1)}>
            <Descriptions
              column={1}
              size="small"
              items={statement.fields.map((f) => ({ key: f.id, label: f.label, children: cell(f, row) }))}
            />
          </Card>
        ))}
      </Flex>
      <div className="statement-table-wrap" style={{ overflowX: 'auto' }}>
        <table className="statement-table" data-testid="statement-table">
          <thead>
            <tr>
              <th style={{ width: 56 }}>#</th>
              {statement.fields.map((f) => (
                <th key={f.id}>{f.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {statement.records.map((row, i) => (
              <tr key={row.id}>
                <td>{i + 1}</td>
                {statement.fields.map((f) => (
                  <td key={f.id}>{cell(f, row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function OneRecord({ statement }: { statement: PublicStatement }) {
  const { t } = useTranslation();
  const cell = useCellText();
  const row = statement.records[0];
  if (!row) return <Empty description={t('publicPages.noRecords')} />;
  return (
    <Descriptions
      bordered
      column={1}
      size="middle"
      data-testid="statement-record"
      items={statement.fields.map((f) => ({ key: f.id, label: f.label, children: cell(f, row) }))}
    />
  );
}

/**
 * `/statement?loadCodedate=…` (no login, issue 22 §2, docs/no-login.md): a published statement — the fields
 * staff chose of the records they chose — printable (print CSS: no buttons, the table across the page).
 */
export default function StatementPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('loadCodedate') ?? '';
  const query = useQuery({
    queryKey: ['publicStatement', code],
    queryFn: () => publicPageApi.statement(code),
    retry: false,
    refetchOnWindowFocus: false,
  });
  return (
    <>
      <style>{PRINT_CSS}</style>
      <PublicPageFrame query={query} title={query.data?.title} maxWidth={1100} testId="statement">
        {(statement) => (
          <Flex vertical gap={12}>
            <Flex justify="space-between" align="start" gap={8} wrap>
              <Typography.Text type="secondary">
                {statement.tableTitle} ·{' '}
                {t('publicPages.publishedAt', { time: statement.publishTime.slice(0, 16) })} ·{' '}
                {t('publicPages.validUntil', { time: statement.expireTime.slice(0, 16) })}
              </Typography.Text>
              <Button
                className="no-print"
                icon={<PrinterOutlined />}
                onClick={() => window.print()}
                data-testid="statement-print"
              >
                {t('publicPages.print')}
              </Button>
            </Flex>
            {statement.intro ? (
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
                {statement.intro}
              </Typography.Paragraph>
            ) : null}
            {statement.kind === 'record' ? (
              <OneRecord statement={statement} />
            ) : (
              <Records statement={statement} />
            )}
          </Flex>
        )}
      </PublicPageFrame>
    </>
  );
}
