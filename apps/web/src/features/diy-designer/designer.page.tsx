import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Result, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Designer } from './designer.tsx';
import { FORMS_PATH } from './designer-toolbar.tsx';
import { DESIGNER_KEYS, designerApi } from './diy-designer.api.ts';

/** `/diyTable/design?id=<formId>`: the form designer (a hidden menu, opened from 表单管理). */
export default function DesignerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const raw = params.get('id') ?? params.get('Id') ?? '';
  const formId = /^\d+$/.test(raw) ? Number(raw) : null;
  const [nonce, setNonce] = useState(0);
  const query = useQuery({
    queryKey: DESIGNER_KEYS.form(formId ?? 0),
    queryFn: () => designerApi.load(formId ?? 0),
    enabled: formId !== null,
    retry: 0,
    refetchOnWindowFocus: false,
  });

  if (formId === null) {
    return (
      <Result
        status="warning"
        title={t('diyDesigner.noId')}
        extra={<Button onClick={() => navigate(FORMS_PATH)}>{t('diyDesigner.back')}</Button>}
        data-testid="designer-no-id"
      />
    );
  }
  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('diyDesigner.loadFailed', { reason: query.error.message })}
        action={
          <Button size="small" onClick={() => query.refetch()}>
            {t('diyDesigner.retry')}
          </Button>
        }
        data-testid="designer-load-error"
      />
    );
  }
  if (!query.data) return <Skeleton active paragraph={{ rows: 12 }} />;
  return (
    <Designer
      key={`${formId}#${nonce}`}
      formId={formId}
      data={query.data}
      refresh={() => query.refetch()}
      reload={async () => {
        await query.refetch();
        setNonce((n) => n + 1);
      }}
    />
  );
}
