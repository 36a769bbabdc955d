import {
  ArrowLeftOutlined,
  EyeOutlined,
  HistoryOutlined,
  RedoOutlined,
  SaveOutlined,
  SendOutlined,
  UndoOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { FormDesign } from '@shuzhi/contracts/diy-form';
import { Badge, Button, Divider, Popover, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCan } from '../../platform/access/access.tsx';
import { type FieldPath, fieldAt, type History } from './designer.model.ts';
import styles from './designer.module.css';
import type { DesignerSave } from './use-designer-save.ts';

export const FORMS_PATH = '/diyTable';

type ToolbarProps = {
  title: string;
  design: FormDesign;
  history: History;
  save: DesignerSave;
  undo: () => void;
  redo: () => void;
  /** Selects a field and scrolls it into view (a problem's field). */
  reveal: (path: FieldPath) => void;
  onVersions: () => void;
  onPreview: () => void;
};

/** 返回, the form's title, version and state; 撤销 / 重做, the problems, 历史版本, 预览, 保存草稿 and 发布. */
export function DesignerToolbar({
  title,
  design,
  history,
  save,
  undo,
  redo,
  reveal,
  onVersions,
  onPreview,
}: ToolbarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { can } = useCan();
  const { version, isDraft, dirty, problems, problemCount, problemsOpen, setProblemsOpen, saving } = save;
  const problemList = [...problems.entries()].flatMap(([key, list]) => list.map((text) => ({ key, text })));
  const labelOf = (key: string) => {
    const [id = '', column] = key.split('.');
    const field = fieldAt(design, { id, column });
    return field ? field.label : key || t('diyDesigner.formProblem');
  };
  return (
    <div className={styles.toolbar}>
      <Space size={8} className={styles.toolbarLeft}>
        <Tooltip title={t('diyDesigner.back')}>
          <Button
            icon={<ArrowLeftOutlined />}
            onClick={() => navigate(FORMS_PATH)}
            aria-label={t('diyDesigner.back')}
            data-testid="designer-back"
          />
        </Tooltip>
        <Typography.Title
          level={5}
          className={styles.title}
          style={{ margin: 0 }}
          ellipsis={{ tooltip: title }}
        >
          {title}
        </Typography.Title>
        {version > 0 ? (
          <Tag color="blue" data-testid="designer-version">
            {t('diyDesigner.version', { version })}
          </Tag>
        ) : null}
        <Tag color={version === 0 ? 'default' : isDraft ? 'orange' : 'green'} data-testid="designer-state">
          {version === 0
            ? t('diyDesigner.stateNever')
            : isDraft
              ? t('diyDesigner.stateDraft')
              : t('diyDesigner.statePublished')}
        </Tag>
        <Typography.Text type="secondary" className={styles.savedState} data-testid="designer-dirty">
          <Badge status={dirty ? 'warning' : 'success'} />
          {dirty ? t('diyDesigner.unsaved') : t('diyDesigner.allSaved')}
        </Typography.Text>
      </Space>
      <Space size={6} wrap={false}>
        <Tooltip title={t('diyDesigner.undo')}>
          <Button
            icon={<UndoOutlined />}
            disabled={history.past.length === 0}
            onClick={undo}
            aria-label={t('diyDesigner.undo')}
            data-testid="designer-undo"
          />
        </Tooltip>
        <Tooltip title={t('diyDesigner.redo')}>
          <Button
            icon={<RedoOutlined />}
            disabled={history.future.length === 0}
            onClick={redo}
            aria-label={t('diyDesigner.redo')}
            data-testid="designer-redo"
          />
        </Tooltip>
        {problemCount > 0 ? (
          <Popover
            open={problemsOpen}
            onOpenChange={setProblemsOpen}
            trigger="click"
            placement="bottomRight"
            title={t('diyDesigner.problemsTitle')}
            content={
              <div className={styles.problemList} data-testid="designer-problem-list">
                <Typography.Text type="secondary">{t('diyDesigner.problemsHint')}</Typography.Text>
                {problemList.map((p) => (
                  <button
                    type="button"
                    key={`${p.key}:${p.text}`}
                    className={styles.problemItem}
                    onClick={() => {
                      const [id = '', column] = p.key.split('.');
                      if (fieldAt(design, { id, column })) reveal({ id, column });
                      setProblemsOpen(false);
                    }}
                  >
                    <strong>{labelOf(p.key)}</strong>
                    <span>{p.text}</span>
                  </button>
                ))}
              </div>
            }
          >
            <Button danger icon={<WarningOutlined />} data-testid="designer-problems">
              {t('diyDesigner.problems', { count: problemCount })}
            </Button>
          </Popover>
        ) : null}
        <Divider orientation="vertical" />
        <Button icon={<HistoryOutlined />} onClick={onVersions} data-testid="designer-versions">
          {t('diyDesigner.versions')}
        </Button>
        <Button icon={<EyeOutlined />} onClick={onPreview} data-testid="designer-preview">
          {t('diyDesigner.preview')}
        </Button>
        {can('diyTable:design') ? (
          <Button
            icon={<SaveOutlined />}
            loading={saving === 'draft'}
            disabled={saving !== null}
            onClick={() => save.send(false)}
            data-testid="designer-save"
          >
            {t('diyDesigner.saveDraft')}
          </Button>
        ) : null}
        {can('diyTable:publish') ? (
          <Button
            type="primary"
            icon={<SendOutlined />}
            loading={saving === 'publish'}
            disabled={saving !== null}
            onClick={save.publish}
            data-testid="designer-publish"
          >
            {t('diyDesigner.publish')}
          </Button>
        ) : null}
      </Space>
    </div>
  );
}
