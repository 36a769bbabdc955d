import type { BuiltInJob } from '@shuzhi/contracts/job';

export type SeedJobTrigger = {
  triggerId: string;
  description: string;
  /** Six fields with seconds, or every `periodSeconds`. */
  cron?: string;
  periodSeconds?: number;
  /** Fired when a process becomes the scheduler's leader (a start): catches up what a stop missed. */
  runOnStart?: boolean;
};

export type SeedJob = {
  /** The job id is the built-in handler's name. */
  jobId: BuiltInJob;
  groupName: string;
  description: string;
  timeoutSeconds: number;
  trigger: SeedJobTrigger;
};

/** The built-in jobs (SPEC §8) with their triggers, inserted where missing; an admin may pause or retime them. */
export const JOBS: SeedJob[] = [
  {
    jobId: 'logRetention',
    groupName: 'system',
    description: '日志清理：删除超过保留天数（sys_log_retention_days）的访问、操作、异常和差异日志',
    timeoutSeconds: 3600,
    trigger: { triggerId: 'daily', description: '每天 03:00', cron: '0 0 3 * * *' },
  },
  {
    jobId: 'onlineUserCleanup',
    groupName: 'system',
    description: '在线用户清理：结束刷新令牌已过期的会话',
    timeoutSeconds: 600,
    trigger: { triggerId: 'every10min', description: '每 10 分钟', periodSeconds: 600 },
  },
  {
    jobId: 'noticePublish',
    groupName: 'system',
    description: '定时发布通知公告：发布到达发布时间的通知',
    timeoutSeconds: 300,
    trigger: { triggerId: 'everyMinute', description: '每 60 秒', periodSeconds: 60 },
  },
  {
    jobId: 'jobRecordRetention',
    groupName: 'system',
    description: '作业记录清理：删除超过保留天数（sys_job_record_retention_days）的运行记录',
    timeoutSeconds: 3600,
    trigger: { triggerId: 'daily', description: '每天 03:30', cron: '0 30 3 * * *' },
  },
  {
    jobId: 'taskSchedule',
    groupName: 'diy',
    description: '计划任务：为报表的每个新周期按计划创建任务（每个计划每期一次，停机错过的在启动后补建一次）',
    timeoutSeconds: 600,
    trigger: {
      triggerId: 'every5min',
      description: '每 5 分钟，启动时也运行',
      periodSeconds: 300,
      runOnStart: true,
    },
  },
  {
    jobId: 'taskUrge',
    groupName: 'system',
    description: '任务自动催办：按任务的催办阶梯提醒未完成填报的单位（免打扰时段内顺延）',
    timeoutSeconds: 600,
    trigger: { triggerId: 'every5min', description: '每 5 分钟', periodSeconds: 300 },
  },
];
