import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/access/access.tsx';
import { PublicPageTable } from './public-page-table.tsx';
import { PUBLIC_PAGE_KEYS, type Scene, sceneApi } from './public-pages.api.ts';
import { SceneDialog } from './scene-dialog.tsx';

/**
 * 自定义场景 (issue 22 §2, docs/no-login.md): staff configure a scene for an event or a campaign — banner,
 * intro and entries — opened at `/customScene?id=…` without login until withdrawn or expired.
 */
export default function ScenesPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const client = useQueryClient();
  const [dialog, setDialog] = useState<{ editing: Scene | null } | null>(null);
  return (
    <PublicPageTable<Scene>
      title={t('publicPages.sceneTitle')}
      queryKey={PUBLIC_PAGE_KEYS.scenes}
      load={sceneApi.page}
      columns={[
        { key: 'entries', title: t('publicPages.colEntries'), width: 90, render: (_, s) => s.entries.length },
      ]}
      can={{
        add: can('sysScene:add'),
        edit: can('sysScene:edit'),
        withdraw: can('sysScene:withdraw'),
        delete: can('sysScene:delete'),
      }}
      withdraw={sceneApi.withdraw}
      remove={sceneApi.remove}
      onCreate={() => setDialog({ editing: null })}
      onEdit={(s) => setDialog({ editing: s })}
      testId="scenes"
    >
      <SceneDialog
        open={dialog !== null}
        editing={dialog?.editing ?? null}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          void client.invalidateQueries({ queryKey: PUBLIC_PAGE_KEYS.scenes });
        }}
      />
    </PublicPageTable>
  );
}
