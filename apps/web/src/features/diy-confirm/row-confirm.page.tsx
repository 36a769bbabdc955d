import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Grid, Input, Modal, Popconfirm, Result, Skeleton, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormRenderer } from '../../components/diy-form/form-renderer.tsx';
import { diyConfirmApi } from '../../components/diy-record/diy-confirm.api.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError, hasErrorCode } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';

type Ending = 'expired' | 'used' | 'invalid';

/** Refusals of a code: F1018 expired, F1019 answered, the others (bad, foreign, gone) invalid. */
function endingOf(error: unknown): Ending | null {
  if (hasErrorCode(error, 'F1018')) return 'expired';
  if (hasErrorCode(error, 'F1019')) return 'used';
  if (hasErrorCode(error, 'F1017', 'F1020', 'F1008', 'F1000')) return 'invalid';
  return null;
}

const ID = /^\d{1,16}$/;

/**
 * `/diyReport/rowConfirm?t=<form>&c=<code>` (no login, issue 6 §6): the subject of a record sees that row only
 * and confirms it or disputes it with a comment, once.
 */
export default function RowConfirmPage() {
  const { t } = useTranslation();
  const { systemTitle } = useBranding();
  const screens = Grid.useBreakpoint();
  const [params] = useSearchParams();
  const tableParam = params.get('t') ?? '';
  const code = params.get('c') ?? '';
  const wellFormed = ID.test(tableParam) && code.length > 0;
  const tableId = Number(tableParam);
  const [done, setDone] = useState<'confirm' | 'dispute' | null>(null);
  const [ending, setEnding] = useState<Ending | null>(wellFormed ? null : 'invalid');
  const [disputing, setDisputing] = useState(false);
  const [form] = Form.useForm<{ comment: string }>();

  useEffect(() => {
    document.title = `${t('diyConfirm.pageTitle')} - ${systemTitle}`;
  }, [t, systemTitle]);

  const detail = useQuery({
    queryKey: ['diyConfirm', 'detail', tableId, code],
    queryFn: () => diyConfirmApi.detail(tableId, code),
    enabled: wellFormed,
    retry: false,
    refetchOnWindowFocus: false,
  });
  useEffect(() => {
    if (detail.error) setEnding(endingOf(detail.error));
  }, [detail.error]);

  const answer = useMutation({
    mutationFn: (body: { answer: 'confirm' | 'dispute'; comment?: string }) =>
      diyConfirmApi.answer(detail.data?.recordId ?? 0, { code, ...body }),
    onSuccess: (_, body) => {
      setDisputing(false);
      setDone(body.answer);
    },
    onError: (error) => {
      const end = endingOf(error);
      if (end) {
        setDisputing(false);
        setEnding(end);
        return;
      }
      const fieldErrors =
        error instanceof HttpError && typeof error.errors === 'object' ? error.errors : undefined;
      if (fieldErrors?.comment) form.setFields([{ name: 'comment', errors: [fieldErrors.comment].flat() }]);
      else feedback.error(error.message);
    },
  });
  const confirm = useReclickGuard(() => answer.mutate({ answer: 'confirm' }));
  const dispute = useReclickGuard(({ comment }: { comment: string }) =>
    answer.mutate({ answer: 'dispute', comment: comment.trim() }),
  );

  let body: ReactNode;
  if (done) {
    body = (
      <Result
        status="success"
        title={t('diyConfirm.thanksTitle')}
        subTitle={t(done === 'confirm' ? 'diyConfirm.thanksConfirmed' : 'diyConfirm.thanksDisputed')}
        data-testid="row-confirm-thanks"
      />
    );
  } else if (ending) {
    body = (
      <Result
        status={ending === 'expired' ? 'warning' : ending === 'used' ? 'info' : 'error'}
        title={t(`diyConfirm.${ending}Title`)}
        subTitle={t(`diyConfirm.${ending}Text`)}
        data-testid={`row-confirm-${ending}`}
      />
    );
  } else if (detail.isError) {
    body = (
      <Result
        status="error"
        title={t('diyConfirm.failedTitle')}
        subTitle={detail.error.message}
        extra={
          <Button onClick={() => void detail.refetch()} data-testid="row-confirm-retry">
            {t('diyConfirm.retry')}
          </Button>
        }
        data-testid="row-confirm-failed"
      />
    );
  } else if (!detail.data) {
    body = <Skeleton active paragraph={{ rows: 8 }} data-testid="row-confirm-loading" />;
  } else {
    const data = detail.data;
    body = (
      <>
        <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="row-confirm-title">
          {data.title}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('diyConfirm.pageIntro')}
        </Typography.Paragraph>
        <Flex gap={16} wrap style={{ marginBottom: 16 }}>
          {data.subject ? (
            <Typography.Text data-testid="row-confirm-subject">
              {t('diyConfirm.forSubject', { name: data.subject })}
            </Typography.Text>
          ) : null}
          {data.dataNo ? (
            <Typography.Text>{t('diyConfirm.dataNo', { no: data.dataNo })}</Typography.Text>
          ) : null}
          <Typography.Text type="secondary">
            {t('diyConfirm.validUntil', { time: data.expireTime })}
          </Typography.Text>
        </Flex>
        <FormRenderer
          design={data.design}
          values={data.values}
          labels={data.labels}
          mode="view"
          width={screens.md ? 'desktop' : 'phone'}
          idPrefix="row-confirm-"
        />
        <Flex gap={12} justify="center" wrap style={{ marginTop: 24 }}>
          <Popconfirm
            title={t('diyConfirm.confirmAsk')}
            okText={t('diyConfirm.submit')}
            cancelText={t('diyConfirm.cancel')}
            onConfirm={confirm}
            okButtonProps={{ 'data-testid': 'row-confirm-ok-sure' }}
          >
            <Button
              type="primary"
              size="large"
              loading={answer.isPending && answer.variables?.answer === 'confirm'}
              disabled={answer.isPending}
              style={{ minWidth: 140 }}
              data-testid="row-confirm-ok"
            >
              {t('diyConfirm.confirmButton')}
            </Button>
          </Popconfirm>
          <Button
            danger
            size="large"
            disabled={answer.isPending}
            style={{ minWidth: 140 }}
            onClick={() => setDisputing(true)}
            data-testid="row-confirm-dispute"
          >
            {t('diyConfirm.disputeButton')}
          </Button>
        </Flex>
        <Modal
          open={disputing}
          title={t('diyConfirm.disputeTitle')}
          onCancel={() => setDisputing(false)}
          onOk={() => form.submit()}
          okText={t('diyConfirm.submit')}
          cancelText={t('diyConfirm.cancel')}
          okButtonProps={{
            loading: answer.isPending,
            danger: true,
            'data-testid': 'row-confirm-dispute-submit',
          }}
          destroyOnHidden
          data-testid="row-confirm-dispute-modal"
        >
          <Form form={form} layout="vertical" onFinish={dispute}>
            <Form.Item
              name="comment"
              label={t('diyConfirm.comment')}
              rules={[{ required: true, whitespace: true, message: t('diyConfirm.commentRequired') }]}
            >
              <Input.TextArea
                rows={4}
                maxLength={1000}
                showCount
                placeholder={t('diyConfirm.commentPlaceholder')}
                data-testid="row-confirm-comment"
              />
            </Form.Item>
          </Form>
        </Modal>
      </>
    );
  }

  return (
    <div
      style={{
        minHeight: '100vh',
        padding: screens.md ? '32px 16px' : '12px 8px',
        background: 'var(--ant-color-bg-layout, #f5f5f5)',
      }}
      data-testid="row-confirm-page"
    >
      <Card style={{ maxWidth: 880, margin: '0 auto' }} title={t('diyConfirm.pageTitle')}>
        {body}
      </Card>
    </div>
  );
}
