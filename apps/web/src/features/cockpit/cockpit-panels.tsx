import type { CockpitData, CockpitPanel } from '@shuzhi/contracts/cockpit';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './cockpit.module.css';
import { CockpitMap, mapOption } from './cockpit-map.tsx';

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);
const number = (value: number | null) => (value === null ? '—' : value.toLocaleString());

function Panel({ id, children, grow = 1 }: { id: CockpitPanel; children: ReactNode; grow?: number }) {
  const { t } = useTranslation();
  return (
    <section
      className={styles.panel}
      // grow 0: as tall as its content (key figures, weather); the others share the column's height.
      style={grow === 0 ? { flex: '0 0 auto' } : { flexGrow: grow }}
      data-testid={`cockpit-${id}`}
    >
      <h2 className={styles.panelTitle}>{t(`cockpit.panel.${id}`)}</h2>
      {children}
    </section>
  );
}

function Bar({ value }: { value: number | null }) {
  return (
    <div className={styles.bar}>
      <div className={styles.barFill} style={{ width: `${Math.min(100, value ?? 0)}%` }} />
    </div>
  );
}

function Progress({ data }: { data: NonNullable<CockpitData['progress']> }) {
  const { t } = useTranslation();
  const rate = percent(data.reported, data.expected);
  return (
    <Panel id="progress">
      <div className={styles.big}>{rate === null ? '—' : `${rate}%`}</div>
      <Bar value={rate} />
      <div className={styles.sub}>
        {t('cockpit.reportedUnits')} {data.reported} / {t('cockpit.expectedUnits')} {data.expected}
      </div>
      <div className={styles.sub}>
        {t('cockpit.records')} {data.records}
      </div>
    </Panel>
  );
}

function OnTime({ data }: { data: NonNullable<CockpitData['onTime']> }) {
  const { t } = useTranslation();
  const rate = percent(data.onTime, data.records);
  return (
    <Panel id="onTime">
      <div className={styles.big}>{rate === null ? '—' : `${rate}%`}</div>
      <Bar value={rate} />
      <div className={styles.sub}>
        {t('cockpit.onTimeRecords')} {data.onTime} · {t('cockpit.lateRecords')} {data.records - data.onTime}
      </div>
    </Panel>
  );
}

function TopForms({ items }: { items: NonNullable<CockpitData['topForms']> }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...items.map((i) => i.records));
  return (
    <Panel id="topForms" grow={2}>
      {items.length === 0 ? (
        <div className={styles.empty}>{t('cockpit.noForms')}</div>
      ) : (
        <ol className={styles.rows}>
          {items.slice(0, 8).map((item) => (
            <li key={item.tableId}>
              <div className={styles.row}>
                <span className={styles.ellipsis}>{item.title}</span>
                <span>{item.records}</span>
              </div>
              <Bar value={(item.records / max) * 100} />
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

function Figures({ forms }: { forms: CockpitData['forms'] }) {
  const { t } = useTranslation();
  const cards = forms.flatMap((f) => f.figures.map((fig, i) => ({ key: `${f.tableId}:${i}`, form: f, fig })));
  return (
    <Panel id="figures" grow={0}>
      {cards.length === 0 ? (
        <div className={styles.empty}>{t('cockpit.noForms')}</div>
      ) : (
        <div className={styles.figures}>
          {cards.slice(0, 8).map(({ key, form, fig }) => (
            <div key={key} className={styles.figure}>
              <div className={`${styles.muted} ${styles.ellipsis}`}>
                {form.title} · {fig.label}
              </div>
              <div className={styles.figureValue}>{number(fig.value)}</div>
              <div className={styles.muted}>
                {t('cockpit.last')} {number(fig.last)}
              </div>
            </div>
          ))}
        </div>
      )}
    </Panel>
  );
}

function DistrictMap({ data }: { data: CockpitData }) {
  const { t } = useTranslation();
  const label = t('cockpit.records');
  const option = useMemo(
    () => mapOption(data.districts ?? [], data.district, label),
    [data.districts, data.district, label],
  );
  return (
    <Panel id="map" grow={3}>
      <div style={{ flex: 1, minHeight: 0 }}>
        <CockpitMap option={option} />
      </div>
      {data.district ? (
        <div className={styles.muted}>
          {t('cockpit.ownDistrict')}：{data.district}
        </div>
      ) : null}
    </Panel>
  );
}

function Weather({ weather }: { weather: NonNullable<CockpitData['weather']> }) {
  const { t } = useTranslation();
  return (
    <Panel id="weather" grow={0}>
      {weather.status === 'ok' ? (
        <div className={styles.row}>
          <div>
            <div className={styles.sub}>{weather.city}</div>
            <div className={styles.figureValue}>{weather.text}</div>
            <div className={styles.muted}>
              {weather.humidity === null ? null : t('cockpit.humidity', { value: weather.humidity })}
              {weather.wind ? ` · ${weather.wind}` : null}
            </div>
          </div>
          <div className={styles.big}>{weather.temperature}℃</div>
        </div>
      ) : (
        <div className={styles.muted} data-testid="cockpit-weather-none">
          {weather.city} · {t(weather.status === 'off' ? 'cockpit.weatherOff' : 'cockpit.weatherFailed')}
        </div>
      )}
    </Panel>
  );
}

/** A list that scrolls upwards when it is longer than its box: drawn twice, moved by a CSS animation. */
function Scrolling<T>({
  items,
  render,
  empty,
}: {
  items: T[];
  render: (item: T) => ReactNode;
  empty: string;
}) {
  if (items.length === 0) return <div className={styles.empty}>{empty}</div>;
  const scroll = items.length > 6;
  const list = (hidden: boolean) => (
    <ul className={styles.rows} aria-hidden={hidden || undefined} style={{ paddingBottom: 10 }}>
      {items.map(render)}
    </ul>
  );
  return (
    <div className={styles.scroller}>
      <div
        className={scroll ? styles.scrolling : undefined}
        style={{ ['--scroll-seconds' as string]: `${items.length * 3}s` }}
      >
        {list(false)}
        {scroll ? list(true) : null}
      </div>
    </div>
  );
}

function Latest({ items }: { items: NonNullable<CockpitData['latest']> }) {
  const { t } = useTranslation();
  return (
    <Panel id="latest" grow={3}>
      <Scrolling
        items={items}
        empty={t('cockpit.noLatest')}
        render={(item) => (
          <li key={`${item.tableId}:${item.submitTime}:${item.orgName}`} className={styles.row}>
            <span className={styles.ellipsis}>
              {item.orgName} · {item.title}
            </span>
            <span className={styles.muted}>{item.submitTime.slice(5, 16)}</span>
          </li>
        )}
      />
    </Panel>
  );
}

function Alerts({ items }: { items: NonNullable<CockpitData['alerts']> }) {
  const { t } = useTranslation();
  return (
    <Panel id="alerts" grow={2}>
      <Scrolling
        items={items}
        empty={t('cockpit.noAlerts')}
        render={(item) => (
          <li key={`${item.tableId}:${item.orgName}`} className={`${styles.row} ${styles.alert}`}>
            <span className={styles.ellipsis}>
              {item.orgName} · {item.title}
            </span>
            <span className={styles.muted}>{t('cockpit.due', { date: item.dueDate })}</span>
          </li>
        )}
      />
    </Panel>
  );
}

/** The three columns of the screen; a panel the admin switched off is not in the answer and not drawn. */
export function CockpitPanels({ data }: { data: CockpitData }) {
  const on = new Set(data.config.panels);
  return (
    <div className={styles.body}>
      <div className={styles.column}>
        {data.progress ? <Progress data={data.progress} /> : null}
        {data.onTime ? <OnTime data={data.onTime} /> : null}
        {data.topForms ? <TopForms items={data.topForms} /> : null}
      </div>
      <div className={styles.column}>
        {on.has('figures') ? <Figures forms={data.forms} /> : null}
        {data.districts ? <DistrictMap data={data} /> : null}
      </div>
      <div className={styles.column}>
        {data.weather ? <Weather weather={data.weather} /> : null}
        {data.latest ? <Latest items={data.latest} /> : null}
        {data.alerts ? <Alerts items={data.alerts} /> : null}
      </div>
    </div>
  );
}
