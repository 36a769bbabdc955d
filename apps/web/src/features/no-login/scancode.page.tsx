import type { RecordValues } from '@shuzhi/contracts/diy-form';
import type { ErrorCode } from '@shuzhi/contracts/errors';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Grid, Pagination, Result, Skeleton, Tag, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormRenderer, type FormRendererHandle } from '../../components/diy-form/form-renderer.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { errorCodeIn, HttpError } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { type CaptchaAnswer, FillCaptcha, type NoLoginCaptcha } from './fill-captcha.tsx';
import { type NoLoginToken, noLoginPublicApi } from './no-login.api.ts';

type Ending = 'invalid' | 'expired' | 'revoked' | 'usedUp';

const ENDINGS: readonly ErrorCode[] = [
  'N1000',
  'N1001',
  'N1002',
  'N1003',
  'N1004',
  'N1005',
  'N1006',
  'N1008',
  'N1010',
];

/** The refusals that end the page: each has its own screen; the others (tampered, foreign, gone) invalid. */
export function endingOf(error: unknown): Ending | null {
  const code = errorCodeIn(error, ENDINGS);
  if (code === undefined) return null;
  if (code === 'N1001') return 'expired';
  if (code === 'N1002') return 'revoked';
  if (code === 'N1003') return 'usedUp';
  return 'invalid';
}

/** The server asks for a captcha (none sent, or a wrong one) after repeated submissions. */
const CAPTCHA_CODES: readonly ErrorCode[] = ['N1040', 'N1041'];

const KEY = (code: string) => ['noLogin', 'token', code] as const;

/**
 * `/scancode?QrCodeType=form|record&code=…` (no login, issue 22 §2, docs/no-login.md): the landing page of a
 * printed QR code. The code becomes a scoped token (server-side); by the link's kind it opens the form to fill,
 * the form's records, or one record to view or complete. One column on a phone, a card on a desktop.
 */
export default function ScancodePage() {
  const { t } = useTranslation();
  const { systemTitle } = useBranding();
  const screens = Grid.useBreakpoint();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const [ending, setEnding] = useState<Ending | null>(code ? null : 'invalid');

  const access = useQuery({
    queryKey: KEY(code),
    queryFn: () => noLoginPublicApi.token(code),
    enabled: code !== '',
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const title = access.data?.scope.title ?? t('noLogin.title');
  useEffect(() => {
    document.title = `${title} - ${systemTitle}`;
  }, [title, systemTitle]);
  useEffect(() => {
    if (access.error) setEnding(endingOf(access.error));
  }, [access.error]);

  let body: ReactNode;
  if (ending) {
    body = (
      <Result
        status={
          ending === 'expired' || ending === 'usedUp' ? 'warning' : ending === 'revoked' ? 'info' : 'error'
        }
        title={t(`noLogin.scan.${ending}Title`)}
        subTitle={t(`noLogin.scan.${ending}Text`)}
        data-testid={`scancode-${ending}`}
      />
    );
  } else if (access.isError) {
    body = (
      <Result
        status="error"
        title={t('noLogin.scan.failedTitle')}
        subTitle={access.error.message}
        extra={<Button onClick={() => void access.refetch()}>{t('noLogin.scan.retry')}</Button>}
        data-testid="scancode-failed"
      />
    );
  } else if (!access.data) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="scancode-loading" />;
  } else {
    body = <ScopedContent access={access.data} code={code} onEnd={setEnding} phone={!screens.md} />;
  }

  return (
    <div
      style={{
        minHeight: '100vh',
        padding: screens.md ? '32px 16px' : '0',
        background: 'var(--ant-color-bg-layout, #f5f5f5)',
        overflowX: 'hidden',
      }}
      data-testid="scancode-page"
    >
      <Card
        style={{ maxWidth: 760, margin: '0 auto', borderRadius: screens.md ? undefined : 0 }}
        styles={{ body: { padding: screens.md ? 24 : 12 } }}
        title={
          <Flex align="center" gap={8} wrap>
            <span data-testid="scancode-title" style={{ whiteSpace: 'normal' }}>
              {title}
            </span>
            <Tag color="green">{t('noLogin.scan.noLoginHint')}</Tag>
          </Flex>
        }
      >
        {body}
      </Card>
    </div>
  );
}

function ScopedContent({
  access,
  code,
  onEnd,
  phone,
}: {
  access: NoLoginToken;
  code: string;
  onEnd: (ending: Ending) => void;
  phone: boolean;
}) {
  const { t } = useTranslation();
  const { scope, token } = access;
  const design = useQuery({
    queryKey: ['noLogin', 'design', token],
    queryFn: () => noLoginPublicApi.design(token, scope.tableId),
    retry: false,
  });
  useEffect(() => {
    const end = endingOf(design.error);
    if (end) onEnd(end);
  }, [design.error, onEnd]);
  if (design.isError && !endingOf(design.error)) {
    return <Result status="error" title={t('noLogin.scan.failedTitle')} subTitle={design.error.message} />;
  }
  if (!design.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {scope.tableTitle} · {t('noLogin.scan.validUntil', { time: scope.expireTime.slice(0, 16) })}
      </Typography.Paragraph>
      {scope.mode === 'view' && scope.qrType === 'form' ? (
        <RecordList access={access} design={design.data.design} onEnd={onEnd} phone={phone} />
      ) : scope.qrType === 'record' ? (
        <OneRecord access={access} design={design.data.design} onEnd={onEnd} phone={phone} />
      ) : (
        <FillForm access={access} code={code} design={design.data.design} onEnd={onEnd} phone={phone} />
      )}
    </>
  );
}

type Design = Awaited<ReturnType<typeof noLoginPublicApi.design>>['design'];
type Part = { access: NoLoginToken; design: Design; onEnd: (ending: Ending) => void; phone: boolean };

/** The records of a view link, one card each, a page at a time. */
function RecordList({ access, design, onEnd, phone }: Part) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const records = useQuery({
    queryKey: ['noLogin', 'page', access.token, page],
    queryFn: () => noLoginPublicApi.page(access.token, access.scope.tableId, page),
    retry: false,
  });
  useEffect(() => {
    const end = endingOf(records.error);
    if (end) onEnd(end);
  }, [records.error, onEnd]);
  if (!records.data) return <Skeleton active />;
  if (records.data.total === 0) return <Empty description={t('noLogin.scan.noRecords')} />;
  return (
    <Flex vertical gap={12} data-testid="scancode-records">
      <Typography.Text>{t('noLogin.scan.records', { count: records.data.total })}</Typography.Text>
      {records.data.items.map((record) => (
        <Card
          key={record.id}
          size="small"
          title={t('noLogin.scan.record', { no: record.dataNo ?? record.createTime.slice(0, 16) })}
        >
          <FormRenderer
            design={design}
            values={record.values}
            labels={record.labels}
            mode="view"
            width={phone ? 'phone' : 'desktop'}
            idPrefix={`scancode-${record.id}-`}
          />
        </Card>
      ))}
      <Pagination
        align="center"
        current={page}
        total={records.data.total}
        pageSize={records.data.pageSize}
        onChange={setPage}
        showSizeChanger={false}
        simple={phone}
      />
    </Flex>
  );
}

/** The record of a record link: shown, or completed once (fillOne). */
function OneRecord({ access, design, onEnd, phone }: Part) {
  const recordId = access.scope.recordId ?? 0;
  const record = useQuery({
    queryKey: ['noLogin', 'detail', access.token, recordId],
    queryFn: () => noLoginPublicApi.detail(access.token, access.scope.tableId, recordId),
    retry: false,
  });
  useEffect(() => {
    const end = endingOf(record.error);
    if (end) onEnd(end);
  }, [record.error, onEnd]);
  if (!record.data) return <Skeleton active />;
  if (access.scope.mode === 'fillOne') {
    return (
      <Filler
        design={design}
        initial={record.data.values}
        phone={phone}
        onEnd={onEnd}
        send={(values, captcha) =>
          noLoginPublicApi.update(access.token, access.scope.tableId, recordId, values, captcha)
        }
      />
    );
  }
  return (
    <FormRenderer
      design={design}
      values={record.data.values}
      labels={record.data.labels}
      mode="view"
      width={phone ? 'phone' : 'desktop'}
      idPrefix="scancode-"
    />
  );
}

/** A fill link: the form; after a submission of a fillMany link, a fresh token for the next record. */
function FillForm({ access, code, design, onEnd, phone }: Part & { code: string }) {
  const client = useQueryClient();
  const [round, setRound] = useState(0);
  return (
    <Filler
      key={round}
      design={design}
      initial={{}}
      phone={phone}
      onEnd={onEnd}
      isNew
      send={(values, captcha) => noLoginPublicApi.add(access.token, access.scope.tableId, values, captcha)}
      again={
        access.scope.mode === 'fillMany'
          ? async () => {
              await client.invalidateQueries({ queryKey: KEY(code) });
              setRound((r) => r + 1);
            }
          : undefined
      }
    />
  );
}

function Filler({
  design,
  initial,
  phone,
  onEnd,
  send,
  again,
  isNew = false,
}: {
  design: Design;
  initial: RecordValues;
  phone: boolean;
  onEnd: (ending: Ending) => void;
  send: (
    values: RecordValues,
    captcha?: CaptchaAnswer,
  ) => Promise<{ id: number; dataNo: string | null } | null>;
  again?: (() => Promise<void>) | undefined;
  isNew?: boolean;
}) {
  const { t } = useTranslation();
  const renderer = useRef<FormRendererHandle>(null);
  const [values, setValues] = useState<RecordValues>(initial);
  const [done, setDone] = useState<{ dataNo: string | null } | null>(null);
  // Asked for by the server after repeated submissions; a captcha serves one attempt, so any refusal draws
  // a new one. The form's values stay in `values` throughout.
  const [needCaptcha, setNeedCaptcha] = useState(false);
  const [captcha, setCaptcha] = useState<NoLoginCaptcha | null>(null);
  const [captchaText, setCaptchaText] = useState('');
  const drawCaptcha = useCallback(() => {
    setCaptchaText('');
    noLoginPublicApi.captcha().then(setCaptcha, (error: Error) => feedback.error(error.message));
  }, []);
  const submit = useMutation({
    mutationFn: (input: { values: RecordValues; captcha?: CaptchaAnswer }) =>
      send(input.values, input.captcha),
    onSuccess: (result) => setDone({ dataNo: result?.dataNo ?? null }),
    onError: (error) => {
      const end = endingOf(error);
      if (end) return onEnd(end);
      if (needCaptcha || errorCodeIn(error, CAPTCHA_CODES) !== undefined) {
        setNeedCaptcha(true);
        drawCaptcha();
      }
      if (error instanceof HttpError && error.errors && typeof error.errors === 'object') {
        renderer.current?.showErrors(error.errors as Parameters<FormRendererHandle['showErrors']>[0]);
        feedback.error(t('noLogin.scan.fixErrors'));
        return;
      }
      feedback.error(error.message);
    },
  });
  const onSubmit = useReclickGuard(() => {
    const check = renderer.current?.check('submit');
    if (!check) return;
    if (!check.ok) {
      feedback.error(t('noLogin.scan.fixErrors'));
      return;
    }
    if (!needCaptcha) return submit.mutate({ values: check.values });
    if (!captcha || !captchaText.trim()) {
      feedback.error(t('noLogin.scan.captchaMissing'));
      return;
    }
    submit.mutate({ values: check.values, captcha: { codeId: captcha.id, code: captchaText.trim() } });
  });
  if (done) {
    return (
      <Result
        status="success"
        title={t('noLogin.scan.doneTitle')}
        subTitle={[
          t('noLogin.scan.doneText'),
          done.dataNo ? t('noLogin.scan.doneNo', { no: done.dataNo }) : '',
        ]
          .filter(Boolean)
          .join(' ')}
        extra={
          again ? (
            <Button size="large" onClick={() => void again()} data-testid="scancode-again">
              {t('noLogin.scan.again')}
            </Button>
          ) : null
        }
        data-testid="scancode-done"
      />
    );
  }
  return (
    <>
      <FormRenderer
        ref={renderer}
        design={design}
        values={values}
        onChange={(next) => setValues(next)}
        mode="edit"
        isNew={isNew}
        width={phone ? 'phone' : 'desktop'}
        disabled={submit.isPending}
        idPrefix="scancode-"
      />
      <div
        style={{
          position: 'sticky',
          bottom: 0,
          padding: '12px 0 calc(12px + env(safe-area-inset-bottom))',
          background: 'var(--ant-color-bg-container, #fff)',
          borderTop: '1px solid var(--ant-color-border-secondary, #f0f0f0)',
          zIndex: 2,
        }}
      >
        {needCaptcha ? (
          <FillCaptcha
            captcha={captcha}
            value={captchaText}
            onChange={setCaptchaText}
            onRefresh={drawCaptcha}
            disabled={submit.isPending}
          />
        ) : null}
        <Button
          type="primary"
          size="large"
          block={phone}
          loading={submit.isPending}
          onClick={onSubmit}
          style={phone ? undefined : { minWidth: 160 }}
          data-testid="scancode-submit"
        >
          {submit.isPending ? t('noLogin.scan.submitting') : t('noLogin.scan.submit')}
        </Button>
      </div>
    </>
  );
}
