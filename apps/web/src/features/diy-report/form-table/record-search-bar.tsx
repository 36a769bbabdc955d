import { FilterOutlined, UndoOutlined } from '@ant-design/icons';
import type { FormField } from '@shuzhi/contracts/diy-form';
import type { PeriodBrief } from '@shuzhi/contracts/diy-period';
import { Badge, Button, Card, Checkbox, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { PeriodStateTag } from '../../../components/diy-period/period-tag.tsx';
import { RECORD_STATUSES, useRecordStatusText } from '../../../components/diy-record/record-status-tag.tsx';
import { FilterBuilder } from './filter-builder.tsx';
import type { RecordPeriods } from './use-record-periods.ts';
import type { RecordSearch } from './use-record-search.ts';

type PeriodSelectProps = {
  periods: RecordPeriods;
  currentPeriod: PeriodBrief | null;
  onChange: (value: number | 'all') => void;
};

/** The period the record list shows (or 全部周期). */
export function PeriodSelect({ periods, currentPeriod, onChange }: PeriodSelectProps) {
  const { t } = useTranslation();
  const { periods: list, periodId, periodById } = periods;
  return (
    <Select
      style={{ width: 220 }}
      value={periodId ?? 'all'}
      loading={list.isLoading}
      status={list.isError ? 'error' : undefined}
      onChange={onChange}
      options={[
        { value: 'all', label: t('diyPeriod.table.allPeriods') },
        ...(list.data ?? []).map((p) => ({
          value: p.id,
          label: (
            <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
              <span>{p.name}</span>
              {p.state === 'open' ? null : <PeriodStateTag state={p.state} />}
            </span>
          ),
          title: p.name,
        })),
        ...(periodId !== undefined && !periodById.has(periodId)
          ? [
              {
                value: periodId,
                label: currentPeriod?.id === periodId ? currentPeriod.name : `#${periodId}`,
              },
            ]
          : []),
      ]}
      aria-label={t('diyPeriod.table.period')}
      title={list.isError ? t('diyPeriod.table.periodsFailed') : undefined}
      data-testid="diy-record-period"
    />
  );
}

type SearchBarProps = {
  search: RecordSearch;
  /** How many field filters apply (the drafted ones once applied, and the route's). */
  filterCount: number;
  searching: boolean;
  firstPage: () => void;
  onReset: () => void;
};

/** 关键字, 状态, 只看我的, the 筛选 toggle and 重置. */
export function RecordSearchBar({ search, filterCount, searching, firstPage, onReset }: SearchBarProps) {
  const { t } = useTranslation();
  const statusText = useRecordStatusText();
  const { keyword, filterOpen, drafts, applied } = search;
  return (
    <>
      <Input.Search
        allowClear
        style={{ width: 260 }}
        placeholder={t('diyFormTable.keyword')}
        value={search.keywordText}
        onChange={(e) => {
          search.setKeywordText(e.target.value);
          if (e.target.value === '' && keyword !== '') {
            search.setKeyword('');
            firstPage();
          }
        }}
        onSearch={(value) => {
          search.setKeyword(value.trim());
          firstPage();
        }}
        aria-label={t('diyFormTable.keyword')}
        data-testid="diy-record-keyword"
      />
      <Select
        allowClear
        style={{ width: 140 }}
        placeholder={t('diyFormTable.statusFilter')}
        value={search.status}
        onChange={(value) => {
          search.setStatus(value);
          firstPage();
        }}
        options={RECORD_STATUSES.map((s) => ({ value: s, label: statusText(s) }))}
        aria-label={t('diyFormTable.statusFilter')}
        data-testid="diy-record-status-filter"
      />
      <Checkbox
        checked={search.mine}
        onChange={(e) => {
          search.setMine(e.target.checked);
          firstPage();
        }}
        data-testid="diy-record-mine"
      >
        {t('diyFormTable.mine')}
      </Checkbox>
      <Badge count={filterCount} size="small">
        <Button
          icon={<FilterOutlined />}
          type={filterOpen ? 'primary' : 'default'}
          ghost={filterOpen}
          onClick={() => {
            if (!filterOpen && drafts.length === 0) search.setDrafts(applied);
            search.setFilterOpen((o) => !o);
          }}
          aria-expanded={filterOpen}
          data-testid="diy-record-filter-toggle"
        >
          {t('diyFormTable.filter.title')}
        </Button>
      </Badge>
      {searching ? (
        <Button icon={<UndoOutlined />} onClick={onReset} data-testid="diy-record-reset">
          {t('diyFormTable.reset')}
        </Button>
      ) : null}
    </>
  );
}

/** The 筛选 panel: field conditions drafted, then applied (应用) or cleared (清空). */
export function FilterPanel({
  search,
  fields,
  firstPage,
}: {
  search: RecordSearch;
  fields: FormField[];
  firstPage: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" style={{ marginBottom: 12 }} data-testid="diy-record-filter-panel">
      <FilterBuilder fields={fields} drafts={search.drafts} onChange={search.setDrafts} />
      <Space style={{ marginTop: 12 }}>
        <Button
          type="primary"
          onClick={() => {
            search.setApplied(search.drafts);
            firstPage();
          }}
          data-testid="diy-filter-apply"
        >
          {t('diyFormTable.filter.apply')}
        </Button>
        <Button
          onClick={() => {
            search.setDrafts([]);
            search.setApplied([]);
            firstPage();
          }}
          data-testid="diy-filter-clear"
        >
          {t('diyFormTable.filter.clear')}
        </Button>
      </Space>
    </Card>
  );
}
