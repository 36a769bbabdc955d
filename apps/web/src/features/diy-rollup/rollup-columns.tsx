import { ApartmentOutlined } from '@ant-design/icons';
import type { RollupData as RollupFigures, RollupInfo, RollupRow } from '@shuzhi/contracts/diy-rollup';
import { Button, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  type CompareMode,
  figureIn,
  periodOfMode,
  recordsPath,
} from '../../components/diy-rollup/rollup.model.ts';

type ColumnOptions = {
  info: RollupInfo;
  data: RollupFigures | undefined;
  mode: CompareMode;
  parent: string | undefined;
  setParent: (parent: string | undefined) => void;
};

/**
 * The roll-up table's columns: the org (drill-down) or region, a figure per measure (each opens the records
 * behind it; percentages in the 环比 / 同比 modes), records, pending, and the units that have not filed.
 * `figureCell` also shows the 合计 row's figures.
 */
export function useRollupColumns({ info, data, mode, parent, setParent }: ColumnOptions) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { config } = info;
  const number = useMemo(
    () => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }),
    [i18n.language],
  );
  const percent = (value: number) => `${value > 0 ? '+' : ''}${number.format(value)}%`;
  const isPercent = mode === 'mom' || mode === 'yoy';
  const period = data ? periodOfMode(data, mode) : null;

  const openRecords = (target: { key: string; name: string } | null) =>
    navigate(recordsPath(info, info.periodic ? (period?.id ?? null) : null, target));

  const figureCell = (row: RollupRow, measureId: string, label: string, isTotal: boolean) => {
    const value = figureIn(row, measureId, mode);
    if (isPercent) {
      if (value === null) return <Typography.Text type="secondary">—</Typography.Text>;
      return (
        <Typography.Text type={value > 0 ? 'success' : value < 0 ? 'danger' : undefined}>
          {percent(value)}
        </Typography.Text>
      );
    }
    const text = value === null ? '—' : number.format(value);
    // The records behind the figure: the row's subtree (or region), or the level's for the total; the
    // parent's own row (（本级）, drilled) holds the records the parent org filed itself.
    const target = isTotal
      ? (data?.path.at(-1) ?? null)
      : { key: row.key, name: row.name, own: parent !== undefined && row.key === parent };
    if (info.periodic && !period) return text;
    return (
      <Tooltip
        title={t('diyLoad.openRecords', { name: isTotal ? t('diyLoad.total') : row.name, measure: label })}
      >
        <Button
          type="link"
          size="small"
          style={{ padding: 0, height: 'auto' }}
          onClick={() => openRecords(target)}
          data-testid={isTotal ? `rollup-total-${measureId}` : `rollup-fig-${row.key}-${measureId}`}
        >
          {text}
        </Button>
      </Tooltip>
    );
  };

  const statusesText =
    config.statuses === 'approved' ? t('diyLoad.statusesApproved') : t('diyLoad.statusesSubmitted');
  const isOrg = config.dimension === 'org';
  const columns: ColumnsType<RollupRow> = [
    {
      key: 'name',
      title: isOrg ? t('diyLoad.nameOrg') : (info.regionFieldLabel ?? t('diyLoad.nameRegion')),
      dataIndex: 'name',
      fixed: 'left',
      width: 200,
      ellipsis: true,
      render: (name: string, row) =>
        row.hasChildren ? (
          <Tooltip title={t('diyLoad.drill', { name })}>
            <Button
              type="link"
              size="small"
              style={{ padding: 0 }}
              icon={<ApartmentOutlined />}
              onClick={() => setParent(row.key)}
              data-testid={`rollup-drill-${row.key}`}
            >
              {name}
            </Button>
          </Tooltip>
        ) : (
          <span data-testid={`rollup-name-${row.key}`}>{name}</span>
        ),
    },
    ...config.measures.map((m) => ({
      key: m.id,
      title: m.label,
      align: 'right' as const,
      width: 112,
      render: (_: unknown, row: RollupRow) => figureCell(row, m.id, m.label, false),
    })),
    {
      key: 'records',
      title: (
        <Tooltip title={t('diyLoad.recordsHint', { statuses: statusesText })}>{t('diyLoad.records')}</Tooltip>
      ),
      dataIndex: 'records',
      align: 'right',
      width: 84,
    },
    {
      key: 'pending',
      title: <Tooltip title={t('diyLoad.pendingHint')}>{t('diyLoad.pending')}</Tooltip>,
      dataIndex: 'pending',
      align: 'right',
      width: 84,
      render: (n: number) => (n > 0 ? <Typography.Text type="warning">{n}</Typography.Text> : n),
    },
    ...(isOrg
      ? [
          {
            key: 'units',
            title: <Tooltip title={t('diyLoad.unitsHint')}>{t('diyLoad.units')}</Tooltip>,
            align: 'right' as const,
            width: 104,
            render: (_: unknown, row: RollupRow) => (
              <span data-testid={`rollup-units-${row.key}`}>
                {row.missingUnits ? (
                  <Typography.Text type="danger">{row.missingUnits}</Typography.Text>
                ) : (
                  (row.missingUnits ?? '—')
                )}
                {row.expectedUnits !== null ? ` / ${row.expectedUnits}` : ''}
              </span>
            ),
          },
        ]
      : []),
  ];
  const scrollX = columns.reduce((sum, c) => sum + Number((c as { width?: number }).width ?? 100), 0);
  return { columns, scrollX, figureCell };
}
