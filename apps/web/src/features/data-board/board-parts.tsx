import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import type { BoardData } from '@shuzhi/contracts/dashboard';
import { Button, Card, Col, Row, Space, Statistic, Tooltip, Typography } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changePercent } from '../../components/diy-rollup/rollup.model.ts';
import { saveBlob } from '../../platform/data/download.ts';
import { formatFigure, RANK_SIZE, rankUnits } from './board.model.ts';
import type { ChartHandle } from './board-chart.tsx';

/** A change in % with its arrow colour; — when there is no base. */
function Change({
  label,
  now,
  before,
}: {
  label: string;
  now: number | null;
  before: number | null | undefined;
}) {
  const value = changePercent(now, before);
  return (
    <Typography.Text type="secondary">
      {label}{' '}
      {value === null ? (
        '—'
      ) : (
        <Typography.Text type={value >= 0 ? 'success' : 'danger'}>
          {value >= 0 ? '↑' : '↓'} {Math.abs(value).toFixed(1)}%
        </Typography.Text>
      )}
    </Typography.Text>
  );
}

/** Key figures: this period, last period with the change, same period last year with the change. */
export function KeyFigures({ board, measureId }: { board: BoardData; measureId: string }) {
  const { t, i18n } = useTranslation();
  const { total, period, lastPeriod, lastYearPeriod } = board.data;
  const now = total.figures[measureId] ?? null;
  const last = total.last?.[measureId] ?? null;
  const lastYear = total.lastYear?.[measureId] ?? null;
  const fmt = (v: number | null) => formatFigure(v, i18n.language);
  const cards: { key: string; title: string; value: string; foot: ReactNode }[] = [
    {
      key: 'current',
      title: `${t('dataBoard.current')}${period ? ` · ${period.name}` : ''}`,
      value: fmt(now),
      foot: (
        <Space size={12} wrap>
          <Typography.Text type="secondary">
            {t('dataBoard.records', { count: total.records })}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('dataBoard.pending', { count: total.pending })}
          </Typography.Text>
        </Space>
      ),
    },
    {
      key: 'last',
      title: `${t('dataBoard.last')} · ${lastPeriod?.name ?? t('dataBoard.noPeriodName')}`,
      value: fmt(last),
      foot: <Change label={t('dataBoard.mom')} now={now} before={last} />,
    },
    {
      key: 'lastYear',
      title: `${t('dataBoard.lastYear')} · ${lastYearPeriod?.name ?? t('dataBoard.noPeriodName')}`,
      value: fmt(lastYear),
      foot: <Change label={t('dataBoard.yoy')} now={now} before={lastYear} />,
    },
  ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((c) => (
        <Col key={c.key} xs={24} md={8}>
          <Card size="small" data-testid={`board-kpi-${c.key}`}>
            <Statistic title={c.title} value={c.value} />
            {c.foot}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** A chart's card: its title, 下载图片 (the chart as PNG) and 导出 Excel (its data, from the server). */
export function ChartCard({
  title,
  fileName,
  onExport,
  canExport,
  children,
  testId,
}: {
  title: string;
  fileName: string;
  onExport: () => Promise<unknown>;
  canExport: boolean;
  children: (ref: React.RefObject<ChartHandle | null>) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const chart = useRef<ChartHandle | null>(null);
  const [exporting, setExporting] = useState(false);
  const saveImage = async () => {
    const url = chart.current?.imageUrl();
    if (!url) return;
    saveBlob(await (await fetch(url)).blob(), `${fileName}.png`);
  };
  const exportXlsx = async () => {
    setExporting(true);
    try {
      await onExport();
    } catch {
      // The download helper has shown the server's answer.
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card
      title={title}
      size="small"
      data-testid={testId}
      extra={
        <Space size={4}>
          <Tooltip title={t('dataBoard.downloadImage')}>
            <Button
              size="small"
              type="text"
              icon={<DownloadOutlined />}
              aria-label={t('dataBoard.downloadImage')}
              onClick={saveImage}
              data-testid={`${testId}-image`}
            />
          </Tooltip>
          {canExport ? (
            <Tooltip title={t('dataBoard.exportExcel')}>
              <Button
                size="small"
                type="text"
                icon={<FileExcelOutlined />}
                aria-label={t('dataBoard.exportExcel')}
                loading={exporting}
                onClick={exportXlsx}
                data-testid={`${testId}-excel`}
              />
            </Tooltip>
          ) : null}
        </Space>
      }
    >
      {children(chart)}
    </Card>
  );
}

/** The top and bottom units of the breakdown for the measure; a name opens its records. */
export function Ranking({
  board,
  measureId,
  onOpen,
}: {
  board: BoardData;
  measureId: string;
  onOpen: (row: { key: string; name: string }) => void;
}) {
  const { t, i18n } = useTranslation();
  const { top, bottom } = rankUnits(board.data.rows, measureId);
  const list = (title: string, rows: typeof top, testId: string) => (
    <div data-testid={testId}>
      <Typography.Text strong>{title}</Typography.Text>
      <ol style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
        {rows.map((r, i) => (
          <li key={r.key} style={{ display: 'flex', justifyContent: 'space-between', padding: '4px 0' }}>
            <Typography.Link onClick={() => onOpen(r)}>
              {i + 1}. {r.name}
            </Typography.Link>
            <Typography.Text>{formatFigure(r.value, i18n.language)}</Typography.Text>
          </li>
        ))}
      </ol>
    </div>
  );
  return (
    <Row gutter={16}>
      <Col span={12}>{list(t('dataBoard.top', { count: RANK_SIZE }), top, 'board-top')}</Col>
      <Col span={12}>{list(t('dataBoard.bottom', { count: RANK_SIZE }), bottom, 'board-bottom')}</Col>
    </Row>
  );
}
