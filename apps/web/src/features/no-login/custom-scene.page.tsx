import { EditOutlined, FileTextOutlined, LinkOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PublicPageFrame } from './public-page-frame.tsx';
import { type PublicScene, publicPageApi } from './public-pages.api.ts';

const ICONS = { form: <EditOutlined />, statement: <FileTextOutlined />, link: <LinkOutlined /> } as const;

type Entry = PublicScene['entries'][number];

/** One entry: a large touch target; ours open here, external addresses in a new tab; an ended one is inert. */
function EntryCard({ entry, index }: { entry: Entry; index: number }) {
  const { t } = useTranslation();
  const external = entry.url !== null && !entry.url.startsWith('/');
  const content = (
    <Flex align="center" gap={12} style={{ minHeight: 56, padding: '10px 14px' }}>
      <span style={{ fontSize: 22, color: 'var(--ant-color-primary, #1677ff)' }}>{ICONS[entry.type]}</span>
      <Flex vertical style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text strong style={{ fontSize: 16 }}>
          {entry.title}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {[t(`publicPages.entryTypes.${entry.type}`), entry.note].filter(Boolean).join(' · ')}
        </Typography.Text>
      </Flex>
      {entry.url ? <RightOutlined /> : <Tag>{t('publicPages.ended')}</Tag>}
    </Flex>
  );
  const style = {
    display: 'block',
    border: '1px solid var(--ant-color-border-secondary, #f0f0f0)',
    borderRadius: 8,
    color: 'inherit',
    background: 'var(--ant-color-bg-container, #fff)',
  };
  if (!entry.url) {
    return (
      <div style={{ ...style, opacity: 0.6 }} aria-disabled data-testid={`scene-entry-${index}`}>
        {content}
      </div>
    );
  }
  return (
    <a
      href={entry.url}
      style={style}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      data-testid={`scene-entry-${index}`}
    >
      {content}
    </a>
  );
}

/**
 * `/customScene?id=…` (no login, issue 22 §2, docs/no-login.md): a scene staff configured for an event or a
 * campaign — banner, title, intro and its entries (forms to fill, statements, links) — one column on a phone.
 */
export default function CustomScenePage() {
  const [params] = useSearchParams();
  const code = params.get('id') ?? '';
  const query = useQuery({
    queryKey: ['publicScene', code],
    queryFn: () => publicPageApi.scene(code),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const base = import.meta.env.VITE_API_URL ?? '';
  return (
    <PublicPageFrame query={query} title={query.data?.title} maxWidth={720} testId="scene">
      {(scene) => (
        <Flex vertical gap={16}>
          {scene.bannerUrl ? (
            <img
              src={`${base}${scene.bannerUrl}`}
              alt=""
              style={{ width: '100%', maxHeight: 260, objectFit: 'cover', borderRadius: 8 }}
              data-testid="scene-banner"
            />
          ) : null}
          {scene.intro ? (
            <Typography.Paragraph
              style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}
              data-testid="scene-intro"
            >
              {scene.intro}
            </Typography.Paragraph>
          ) : null}
          <Flex vertical gap={10} data-testid="scene-entries">
            {scene.entries.map((entry, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: entries keep the scene's order; the position is the entry.
              <EntryCard key={i} entry={entry} index={i} />
            ))}
          </Flex>
        </Flex>
      )}
    </PublicPageFrame>
  );
}
