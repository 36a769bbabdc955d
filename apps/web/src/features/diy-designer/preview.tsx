import type { FormDesign } from '@shuzhi/contracts/diy-form';
import type { Filler } from '@shuzhi/contracts/diy-validate';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, List, Modal, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DesignPreview, type PreviewWidth } from '../../components/diy-form/design-preview.tsx';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { DESIGNER_KEYS, designerApi, type FormDesignResult } from './diy-designer.api.ts';

/** The signed-in user as the preview's filler (defaults such as 填报人单位 show their real values). */
function useFiller(): Filler | undefined {
  const user = useSessionStore((s) => s.userInfo);
  return useMemo(
    () =>
      user
        ? { orgId: user.orgId, regionCode: user.regionId ?? null, realName: user.realName, userId: user.id }
        : undefined,
    [user],
  );
}

/** The form as fillers will see it, at desktop or phone width (DesignPreview), in a dialog. */
export function PreviewModal({
  open,
  onClose,
  title,
  design,
  heading,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  design: FormDesign;
  heading?: string;
}) {
  const { t } = useTranslation();
  const filler = useFiller();
  const [width, setWidth] = useState<PreviewWidth>('desktop');
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={heading ?? t('diyDesigner.previewTitle', { title })}
      width={width === 'phone' ? 520 : 1040}
      footer={
        <Button onClick={onClose} data-testid="designer-preview-close">
          {t('diyDesigner.close')}
        </Button>
      }
      destroyOnHidden
      styles={{ body: { maxHeight: 'calc(100vh - 220px)', overflow: 'auto' } }}
      data-testid="designer-preview-modal"
    >
      <DesignPreview design={design} filler={filler} width={width} onWidthChange={setWidth} />
    </Modal>
  );
}

function VersionPreview({
  formId,
  version,
  title,
  onClose,
}: {
  formId: number;
  version: number | null;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: DESIGNER_KEYS.version(formId, version ?? 0),
    queryFn: () => designerApi.version(formId, version ?? 0),
    enabled: version !== null,
  });
  if (version === null) return null;
  if (query.isLoading || query.isError || !query.data) {
    return (
      <Modal
        open
        onCancel={onClose}
        footer={null}
        title={t('diyDesigner.versionList.viewTitle', { version })}
      >
        {query.isError ? <Alert type="error" title={t('diyDesigner.versionList.loadFailed')} /> : <Spin />}
      </Modal>
    );
  }
  return (
    <PreviewModal
      open
      onClose={onClose}
      title={title}
      design={query.data.design}
      heading={`${title} · ${t('diyDesigner.versionList.viewTitle', { version })}`}
    />
  );
}

/** The published versions, newest first, each viewable read-only. */
export function VersionsDrawer({
  open,
  onClose,
  formId,
  title,
  current,
  versions,
}: {
  open: boolean;
  onClose: () => void;
  formId: number;
  title: string;
  current: number;
  versions: FormDesignResult['versions'];
}) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<number | null>(null);
  const sorted = [...versions].sort((a, b) => b.version - a.version);
  return (
    <>
      <Drawer open={open} onClose={onClose} title={t('diyDesigner.versionList.title')} size={380}>
        {sorted.length === 0 ? (
          <Empty description={t('diyDesigner.versionList.empty')} />
        ) : (
          <List
            dataSource={sorted}
            data-testid="designer-version-list"
            renderItem={(item) => (
              <List.Item
                actions={[
                  <Button
                    key="view"
                    size="small"
                    onClick={() => {
                      setViewing(item.version);
                      onClose();
                    }}
                    data-testid={`designer-version-view-${item.version}`}
                  >
                    {t('diyDesigner.versionList.view')}
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={
                    <>
                      {t('diyDesigner.version', { version: item.version })}{' '}
                      {item.version === current ? (
                        <Tag color="green">{t('diyDesigner.versionList.current')}</Tag>
                      ) : null}
                    </>
                  }
                  description={
                    <Typography.Text type="secondary">
                      {t('diyDesigner.versionList.by', {
                        name: item.publishUserName ?? '—',
                        time: item.publishTime,
                      })}
                    </Typography.Text>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Drawer>
      <VersionPreview formId={formId} version={viewing} title={title} onClose={() => setViewing(null)} />
    </>
  );
}
