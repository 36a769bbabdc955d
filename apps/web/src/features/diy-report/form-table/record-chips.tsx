import type { FormField } from '@shuzhi/contracts/diy-form';
import type { PeriodRow } from '@shuzhi/contracts/diy-period';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DiyRecord } from '../../../components/diy-record/diy-record.api.ts';
import type { UrlFilters } from './use-url-filters.ts';

type RecordChipsProps = {
  url: UrlFilters;
  fields: FormField[];
  periodById: Map<number, PeriodRow>;
  rows: DiyRecord[];
  /** The period chip was closed: the list goes back to the default period. */
  onPeriodCleared: () => void;
};

/** The closable tags of what the route filters the list by (the roll-up drill-down). */
export function RecordChips({ url, fields, periodById, rows, onPeriodCleared }: RecordChipsProps) {
  const { t } = useTranslation();
  const { params, urlPeriod, urlOrg, urlFilters, dropParam } = url;
  if (urlPeriod === undefined && urlOrg === undefined && urlFilters.length === 0) return null;
  return (
    <div
      style={{ display: 'flex', gap: 6, flexWrap: 'wrap', marginBottom: 12 }}
      data-testid="diy-record-chips"
    >
      {urlPeriod !== undefined ? (
        <Tag
          closable
          color="blue"
          onClose={(e) => {
            e.preventDefault();
            onPeriodCleared();
            dropParam('periodId');
          }}
          data-testid="diy-chip-period"
        >
          {t('diyPeriod.table.filterPeriod', {
            name: periodById.get(urlPeriod)?.name ?? `#${urlPeriod}`,
          })}
        </Tag>
      ) : null}
      {urlOrg !== undefined ? (
        <Tag
          closable
          color="blue"
          onClose={(e) => {
            e.preventDefault();
            dropParam('orgId');
          }}
          data-testid="diy-chip-org"
        >
          {t('diyPeriod.table.filterOrg', {
            name:
              params.get('orgName') ||
              rows.find((r) => r.createOrgId === urlOrg)?.createOrgName ||
              t('diyPeriod.table.orgFallback', { id: urlOrg }),
          })}
        </Tag>
      ) : null}
      {urlFilters.map((filter) => (
        <Tag
          key={filter.raw}
          closable
          color="blue"
          onClose={(e) => {
            e.preventDefault();
            dropParam('filter', filter.raw);
          }}
          data-testid="diy-chip-filter"
        >
          {t('diyPeriod.table.filterPrefix', {
            field: fields.find((f) => f.id === filter.field)?.label ?? filter.field,
            code: String(filter.value),
          })}
        </Tag>
      ))}
    </div>
  );
}
