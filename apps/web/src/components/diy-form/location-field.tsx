import { AimOutlined, CloseOutlined, EnvironmentOutlined, LoadingOutlined } from '@ant-design/icons';
import { type LocationValue, locationText, toLocationValue } from '@shuzhi/contracts/diy-form';
import { Alert, Button, Flex, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Where a locating attempt stands; `done` shows the value. */
type LocateState = 'idle' | 'asking' | 'denied' | 'unavailable' | 'unsupported' | 'timeout';

/** How long the phone may take for a fix, and the accuracy (metres) beyond which the filler is told to retry. */
const LOCATE_TIMEOUT_MS = 20_000;
const COARSE_METRES = 100;

/**
 * One reading of the browser's geolocation as a location value, or the reason there is none: the permission
 * refused (1), no position (2), the time out (3); no `navigator.geolocation` at all (an insecure page, an old
 * browser) is `unsupported`.
 */
function locateOnce(): Promise<
  { value: LocationValue } | { failure: Exclude<LocateState, 'idle' | 'asking'> }
> {
  const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
  if (!geolocation || (typeof window !== 'undefined' && window.isSecureContext === false)) {
    return Promise.resolve({ failure: 'unsupported' });
  }
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      (position) => {
        const value = toLocationValue({
          lat: position.coords.latitude,
          lng: position.coords.longitude,
          accuracy: position.coords.accuracy,
          time: new Date(position.timestamp || Date.now()).toISOString(),
        });
        resolve(value ? { value } : { failure: 'unavailable' });
      },
      (error) =>
        resolve({
          failure: error.code === 1 ? 'denied' : error.code === 3 ? 'timeout' : 'unavailable',
        }),
      { enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS, maximumAge: 0 },
    );
  });
}

/**
 * A location field (issue 22 §3): a button asks the phone for its GPS position; the record keeps latitude,
 * longitude, the accuracy radius and the time. Asking, refused, unavailable and timed out each say so, with a
 * retry; nothing is asked before the filler presses the button (browsers refuse prompts nobody asked for).
 */
export function LocationField(props: {
  value: unknown;
  onChange: (value: LocationValue | null) => void;
  disabled?: boolean;
  id: string;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const value = toLocationValue(props.value);
  const [state, setState] = useState<LocateState>('idle');
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const testId = props['data-testid'] ?? `diy-input-${props.id}`;

  const locate = async () => {
    setState('asking');
    const result = await locateOnce();
    if (!live.current) return;
    if ('value' in result) {
      setState('idle');
      props.onChange(result.value);
    } else setState(result.failure);
  };

  const asking = state === 'asking';
  const failure = state !== 'idle' && state !== 'asking' ? state : null;
  return (
    <div data-testid={testId} data-state={state}>
      {value ? (
        <Flex align="center" gap={8} wrap style={{ marginBottom: 8 }}>
          <EnvironmentOutlined style={{ color: 'var(--ant-color-primary)' }} />
          <Typography.Text data-testid={`${testId}-value`} copyable={{ text: locationText(value) }}>
            {value.lat.toFixed(6)}, {value.lng.toFixed(6)}
          </Typography.Text>
          <Typography.Text
            type={value.accuracy > COARSE_METRES ? 'warning' : 'secondary'}
            data-testid={`${testId}-accuracy`}
          >
            {t('diyFormRenderer.location.accuracy', { meters: Math.round(value.accuracy) })}
          </Typography.Text>
        </Flex>
      ) : null}
      {value && value.accuracy > COARSE_METRES && !failure ? (
        <Typography.Paragraph type="warning" style={{ fontSize: 12, marginBottom: 8 }}>
          {t('diyFormRenderer.location.coarse')}
        </Typography.Paragraph>
      ) : null}
      {failure ? (
        <Alert
          type={failure === 'denied' || failure === 'unsupported' ? 'error' : 'warning'}
          showIcon
          role="alert"
          title={t(`diyFormRenderer.location.${failure}`)}
          style={{ marginBottom: 8 }}
          data-testid={`${testId}-${failure}`}
        />
      ) : null}
      <Flex gap={8} wrap>
        <Button
          id={props.id}
          icon={asking ? <LoadingOutlined /> : <AimOutlined />}
          onClick={() => void locate()}
          disabled={props.disabled || asking}
          data-testid={`${testId}-locate`}
        >
          {asking
            ? t('diyFormRenderer.location.asking')
            : value || failure
              ? t('diyFormRenderer.location.relocate')
              : t('diyFormRenderer.location.locate')}
        </Button>
        {value && !props.disabled ? (
          <Button
            icon={<CloseOutlined />}
            onClick={() => {
              setState('idle');
              props.onChange(null);
            }}
            disabled={asking}
            data-testid={`${testId}-clear`}
          >
            {t('diyFormRenderer.location.clear')}
          </Button>
        ) : null}
      </Flex>
    </div>
  );
}

/** A location as read: the coordinates and the accuracy. */
export function LocationView({ value, testId }: { value: unknown; testId: string }) {
  const { t } = useTranslation();
  const location = toLocationValue(value);
  if (!location) return <span data-testid={testId}>{t('diyFormRenderer.empty')}</span>;
  return (
    <span data-testid={testId}>
      <EnvironmentOutlined style={{ marginInlineEnd: 4, color: 'var(--ant-color-text-tertiary)' }} />
      {location.lat.toFixed(6)}, {location.lng.toFixed(6)}
      <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
        {t('diyFormRenderer.location.accuracy', { meters: Math.round(location.accuracy) })}
      </Typography.Text>
    </span>
  );
}
