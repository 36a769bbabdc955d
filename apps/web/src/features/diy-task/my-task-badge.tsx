import { CarryOutOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MY_TASK_PATH, useHasMyTasks, useMyTaskCount } from '../../components/diy-task/my-task-count.ts';

/** 我的任务 in the top bar, with how many parts are still to do; shown to those with the 我的任务 menu. */
export function MyTaskBadge({ color }: { color?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = useHasMyTasks();
  const count = useMyTaskCount(allowed);
  if (!allowed) return null;
  const label = t('taskUrge.badgeCount', { n: count });
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        style={{ color }}
        onClick={() => navigate(MY_TASK_PATH)}
        aria-label={label}
        data-testid="my-task-badge"
      >
        <Badge count={count} size="small" overflowCount={99} offset={[4, -2]} data-testid="my-task-count">
          <CarryOutOutlined style={{ color, fontSize: 16 }} />
        </Badge>
      </Button>
    </Tooltip>
  );
}
