import { dictTypeAddInputSchema } from '@shuzhi/contracts/dict-admin';
import { dictItemLabel, dictTypeName } from '@shuzhi/contracts/dict-labels';
import { STATUS, SYS_FLAG } from '@shuzhi/contracts/envelope';
import { Card, Col, Input, InputNumber, Row, Select, Space, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import { TAG_TYPES, tagColor } from '../../components/dict/dict-tag.tsx';
import { toLocale } from '../../platform/i18n/language.ts';
import type { TextKey } from '../../platform/i18n/text-key.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import {
  DICT_DEPENDENT_KEYS,
  type DictDataFilters,
  type DictDataRow,
  type DictTypeFilters,
  type DictTypeRow,
  dictDataResource,
  dictTypeResource,
} from './dict.api.ts';

const TAG_LABEL_KEYS = {
  default: 'dict.tagDefault',
  processing: 'dict.tagProcessing',
  success: 'dict.tagSuccess',
  warning: 'dict.tagWarning',
  error: 'dict.tagError',
} as const satisfies Record<(typeof TAG_TYPES)[number], TextKey>;

const BY_ORDER = { field: 'orderNo', order: 'ascending' } as const;

function schemaRule(check: (value: unknown) => boolean, message: string) {
  return {
    validator: (_: unknown, value: unknown) =>
      !value || check(value) ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}

/** Dictionary types on the left; the selected type's items on the right (issue 4 §2). */
export default function DictPage() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<DictTypeRow | null>(null);
  // Rows carry what is stored (the forms edit it); built-in names and labels show in the UI language.
  const locale = toLocale(useThemeStore((state) => state.globalI18n));
  const typeName = (row: DictTypeRow) => dictTypeName(row.code, row.name, locale);

  // The first type is shown until the admin picks one; a deleted or renamed selection follows the list.
  const onTypesLoaded = useCallback((rows: DictTypeRow[]) => {
    setSelected((current) => {
      if (current) return rows.find((row) => row.id === current.id) ?? current;
      return rows[0] ?? null;
    });
  }, []);

  const typeColumns: CrudColumn<DictTypeRow>[] = [
    {
      key: 'name',
      title: t('dict.typeName'),
      sort: true,
      widthText: typeName,
      render: (_: unknown, row: DictTypeRow) => (
        <span title={row.name} data-testid="dict-type-name">
          {typeName(row)}
        </span>
      ),
    },
    { key: 'code', title: t('dict.typeCode'), sort: true },
  ];
  const typeFields: CrudFormField<DictTypeRow>[] = [
    {
      name: 'name',
      label: t('dict.typeName'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('dict.typeName') }) },
      ],
    },
    {
      name: 'code',
      label: t('dict.typeCode'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('dict.typeCode') }) },
        schemaRule((v) => dictTypeAddInputSchema.shape.code.safeParse(v).success, t('dict.codeRule')),
      ],
      input: ({ mode, record }) => (
        <Input
          allowClear
          disabled={mode === 'edit' && record?.sysFlag === SYS_FLAG.yes}
          placeholder={t('crud.inputPlaceholder', { label: t('dict.typeCode') })}
          data-testid="dict-type-field-code"
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('dict.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />,
    },
    { name: 'remark', label: t('dict.remark'), input: <Input.TextArea rows={2} maxLength={256} showCount /> },
  ];

  const shownLabel = (row: DictDataRow) =>
    selected ? dictItemLabel(selected.code, row.value, row.label, locale) : row.label;

  const dataColumns: CrudColumn<DictDataRow>[] = [
    { key: 'label', title: t('dict.label'), sort: true },
    { key: 'value', title: t('dict.value'), sort: true },
    {
      key: 'tagType',
      title: t('dict.preview'),
      // What the other screens show: the built-in label in the UI language, an edited one as typed.
      widthText: (row) => shownLabel(row),
      render: (_: unknown, row: DictDataRow) => (
        <Tag color={tagColor(row.tagType)} data-testid="dict-data-preview">
          {shownLabel(row)}
        </Tag>
      ),
    },
    { key: 'orderNo', title: t('dict.orderNo'), sort: true, align: 'right', width: 90 },
    { key: 'remark', title: t('dict.remark'), width: 200 },
  ];
  const tagOptions = TAG_TYPES.map((type) => ({
    value: type,
    label: (
      <Tag color={tagColor(type)} style={{ marginInlineEnd: 0 }}>
        {t(TAG_LABEL_KEYS[type])}
      </Tag>
    ),
  }));
  const dataFields: CrudFormField<DictDataRow>[] = [
    {
      name: 'label',
      label: t('dict.label'),
      half: true,
      rules: [{ required: true, whitespace: true, message: t('crud.required', { label: t('dict.label') }) }],
      input: (
        <Input
          allowClear
          maxLength={128}
          placeholder={t('crud.inputPlaceholder', { label: t('dict.label') })}
          data-testid="dict-data-field-label"
        />
      ),
    },
    {
      name: 'value',
      label: t('dict.value'),
      half: true,
      rules: [{ required: true, whitespace: true, message: t('crud.required', { label: t('dict.value') }) }],
      input: (
        <Input
          allowClear
          maxLength={128}
          placeholder={t('crud.inputPlaceholder', { label: t('dict.value') })}
          data-testid="dict-data-field-value"
        />
      ),
    },
    {
      name: 'tagType',
      label: t('dict.tagType'),
      half: true,
      initialValue: 'default',
      input: <Select options={tagOptions} data-testid="dict-data-field-tag" />,
    },
    {
      name: 'orderNo',
      label: t('dict.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />,
    },
    { name: 'remark', label: t('dict.remark'), input: <Input.TextArea rows={2} maxLength={256} showCount /> },
  ];

  return (
    <Row gutter={[16, 16]} data-testid="dict-page">
      <Col xs={24} xl={10}>
        <Card title={t('dict.typeTitle')} style={{ height: '100%' }}>
          <CrudPage<DictTypeRow, DictTypeFilters>
            resource={dictTypeResource}
            entityName={t('dict.typeEntity')}
            columns={typeColumns}
            searchFields={[
              { name: 'name', label: t('dict.typeName'), width: 150 },
              { name: 'code', label: t('dict.typeCode'), width: 150 },
            ]}
            formFields={typeFields}
            permissions={{
              add: 'sysDictType:add',
              update: 'sysDictType:update',
              delete: 'sysDictType:delete',
              setStatus: 'sysDictType:setStatus',
            }}
            statusField="status"
            formDefaults={{ status: STATUS.enabled }}
            canDelete={(row) => row.sysFlag !== SYS_FLAG.yes}
            deleteBlockedText={t('dict.builtInBlocked')}
            invalidates={DICT_DEPENDENT_KEYS}
            onRowClick={setSelected}
            onLoaded={onTypesLoaded}
            selectedRowId={selected?.id ?? null}
            defaultSort={BY_ORDER}
            compact
            testId="dict-type"
          />
        </Card>
      </Col>
      <Col xs={24} xl={14}>
        <Card
          title={
            <Space size={8}>
              <span>{t('dict.dataTitle')}</span>
              {selected ? (
                <Typography.Text type="secondary" data-testid="dict-data-type">
                  {t('dict.dataOf', { name: typeName(selected), code: selected.code })}
                </Typography.Text>
              ) : null}
            </Space>
          }
          style={{ height: '100%' }}
        >
          <CrudPage<DictDataRow, DictDataFilters>
            resource={dictDataResource}
            entityName={t('dict.dataEntity')}
            columns={dataColumns}
            searchFields={[
              { name: 'label', label: t('dict.label'), width: 150 },
              { name: 'value', label: t('dict.value'), width: 150 },
            ]}
            formFields={dataFields}
            permissions={{
              add: 'sysDictData:add',
              update: 'sysDictData:update',
              delete: 'sysDictData:delete',
              setStatus: 'sysDictData:setStatus',
            }}
            statusField="status"
            fixedFilters={selected ? { dictTypeId: selected.id } : undefined}
            formDefaults={selected ? { dictTypeId: selected.id, status: STATUS.enabled } : undefined}
            toPayload={(values) => ({ ...values, tagType: (values.tagType as string | undefined) ?? null })}
            enabled={selected !== null}
            disabledText={t('dict.pickType')}
            invalidates={DICT_DEPENDENT_KEYS}
            defaultSort={BY_ORDER}
            compact
            testId="dict-data"
          />
        </Card>
      </Col>
    </Row>
  );
}
