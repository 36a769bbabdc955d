import type { ErrorCode } from '@shuzhi/contracts/errors';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Card, Flex, Grid, Result, Skeleton, Tag } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeIn } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';

type Ending = 'invalid' | 'expired' | 'withdrawn';

const ENDINGS: Record<string, Ending> = {
  N1000: 'invalid',
  N1005: 'invalid',
  N1008: 'invalid',
  N1010: 'invalid',
  N1020: 'withdrawn',
  N1022: 'withdrawn',
  N1021: 'expired',
  N1023: 'expired',
};

/** The refusal that ends a statement's or scene's page (its own screen), or null. */
function pageEndingOf(error: unknown): Ending | null {
  const code = errorCodeIn(error, Object.keys(ENDINGS) as ErrorCode[]);
  return code === undefined ? null : (ENDINGS[code] ?? null);
}

/**
 * The frame of the login-free statement and scene pages (docs/no-login.md): a card of at most `maxWidth` on a
 * desktop, the whole width on a phone; the loading, ending and failure screens of the page's one query.
 */
export function PublicPageFrame<T>({
  query,
  title,
  maxWidth,
  testId,
  children,
}: {
  query: UseQueryResult<T>;
  title: string | undefined;
  maxWidth: number;
  testId: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { systemTitle } = useBranding();
  const screens = Grid.useBreakpoint();
  const phone = !screens.md;
  useEffect(() => {
    document.title = title ? `${title} - ${systemTitle}` : systemTitle;
  }, [title, systemTitle]);
  const ending = pageEndingOf(query.error);
  let body: ReactNode;
  if (ending) {
    body = (
      <Result
        status={ending === 'invalid' ? 'error' : ending === 'expired' ? 'warning' : 'info'}
        title={t(`publicPages.${ending}Title`)}
        subTitle={t(`publicPages.${ending}Text`)}
        data-testid={`${testId}-${ending}`}
      />
    );
  } else if (query.isError) {
    body = (
      <Result
        status="error"
        title={t('publicPages.failedTitle')}
        subTitle={query.error.message}
        extra={<Button onClick={() => void query.refetch()}>{t('publicPages.retry')}</Button>}
        data-testid={`${testId}-failed`}
      />
    );
  } else if (query.data === undefined) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid={`${testId}-loading`} />;
  } else {
    body = children(query.data);
  }
  return (
    <div
      className="public-page"
      style={{
        minHeight: '100vh',
        padding: phone ? 0 : '32px 16px',
        background: 'var(--ant-color-bg-layout, #f5f5f5)',
      }}
      data-testid={testId}
    >
      <Card
        style={{ maxWidth, margin: '0 auto', borderRadius: phone ? 0 : undefined }}
        styles={{ body: { padding: phone ? 12 : 24 } }}
        title={
          title ? (
            <Flex align="center" gap={8} wrap>
              <span style={{ whiteSpace: 'normal' }} data-testid={`${testId}-title`}>
                {title}
              </span>
              <Tag color="green" className="no-print">
                {t('publicPages.noLoginHint')}
              </Tag>
            </Flex>
          ) : null
        }
      >
        {body}
      </Card>
    </div>
  );
}
