import { LockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result, Space } from 'antd';
import { type ReactNode, useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { DIY_RECORD_KEYS, diyRecordApi } from '../../../components/diy-record/diy-record.api.ts';
import { useFormPasswordPrompt } from '../../../components/diy-report/form-password.tsx';
import { setFormPageTitle } from '../../../components/diy-report/open-form-item.ts';
import { errorCodeIn, HttpError, hasErrorCode } from '../../../platform/http/http-client.ts';
import { RecordList } from './record-list.tsx';

/** Answers of the design call that end on a result page instead of the list. */
const BLOCKING = ['F1000', 'F1001', 'F1002', 'F1003'] as const;

/**
 * 表单填报 (menu component `/diyReport/formTable/index`, route `/diyReport/index/formTable?id=…`): the record
 * list and filling of one report form.
 */
export default function FormTablePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('id') ?? '';
  const id = /^\d{1,16}$/.test(raw) ? Number(raw) : null;
  if (id === null) {
    return <Result status="404" title={t('diyFormTable.noForm')} data-testid="diy-form-table-missing" />;
  }
  return <FormTable key={id} tableId={id} />;
}

function FormTable({ tableId }: { tableId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const password = useFormPasswordPrompt();
  const design = useQuery({
    queryKey: DIY_RECORD_KEYS.design(tableId),
    queryFn: () => diyRecordApi.design(tableId),
    retry: false,
  });
  const code = design.error instanceof HttpError ? design.error.code : undefined;
  const locked = hasErrorCode(design.error, 'F1007');

  const title = design.data?.item.title;
  useEffect(() => {
    if (title) setFormPageTitle(pathname, tableId, title);
  }, [title, pathname, tableId]);

  const { prompt } = password;
  const unlock = useCallback(async () => {
    if (await prompt(tableId, title)) void design.refetch();
  }, [prompt, tableId, title, design.refetch]);
  // Stable: the list prompts from an effect when a page answers F1007.
  const askPassword = useCallback(() => prompt(tableId, title), [prompt, tableId, title]);
  // The form asks for its password (opened by a link, or the verification expired): prompt at once.
  useEffect(() => {
    if (locked) void unlock();
  }, [locked, unlock]);

  let body: ReactNode;
  if (design.isLoading) {
    body = <Card loading data-testid="diy-form-table-loading" />;
  } else if (locked) {
    body = (
      <Result
        icon={<LockOutlined />}
        title={t('diyFormTable.lockedTitle')}
        subTitle={t('diyFormTable.locked')}
        extra={
          <Button type="primary" onClick={() => void unlock()} data-testid="diy-form-table-unlock">
            {t('diyFormTable.enterPassword')}
          </Button>
        }
        data-testid="diy-form-table-locked"
      />
    );
  } else if (design.error) {
    const blocking = errorCodeIn(design.error, BLOCKING);
    body = (
      <Result
        status={blocking ? (blocking === 'F1000' ? '404' : 'warning') : 'error'}
        title={blocking ? t(`diyFormTable.blocked.${blocking}`) : t('diyFormTable.loadFailed')}
        subTitle={design.error.message}
        extra={
          <Space>
            {blocking ? null : (
              <Button onClick={() => void design.refetch()} data-testid="diy-form-table-retry">
                {t('common.retry')}
              </Button>
            )}
            <Button type="primary" onClick={() => navigate('/diyReport')} data-testid="diy-form-table-back">
              {t('diyFormTable.backToList')}
            </Button>
          </Space>
        }
        data-testid="diy-form-table-blocked"
        data-code={code}
      />
    );
  } else if (design.data) {
    body = (
      <RecordList
        tableId={tableId}
        title={design.data.item.title}
        design={design.data.design}
        canAdd={design.data.item.myAuth.add}
        canExport={design.data.item.myAuth.export}
        defaultHidden={design.data.item.defaultHideDataList}
        periodic={(design.data.item.periodKind ?? 'none') !== 'none'}
        currentPeriod={design.data.item.currentPeriod ?? null}
        version={design.data.version}
        askPassword={askPassword}
      />
    );
  }
  return (
    <div data-testid="diy-form-table">
      {body}
      {password.contextHolder}
    </div>
  );
}
