import type { SeedUserGroup } from '../types.ts';

/**
 * User groups (用户组) of the demo district: people from different orgs who work together, picked by name
 * when a task or a notice goes to "the group" rather than to an org or a role.
 */
export const USER_GROUPS: SeedUserGroup[] = [
  {
    code: 'njdl_work_group',
    name: '南京东路街道工作组',
    orderNo: 1,
    remark: '街道领导、街道科员与居委会工作人员，协同处理辖区报表',
    members: ['njdleader', 'njdlstaff', 'gzlstaff'],
  },
  {
    code: 'stat_report_liaison',
    name: '统计报表联络员',
    orderNo: 2,
    remark: '各委办局报表联络人，负责统计报表的催报与核对',
    members: ['fgwstaff', 'tjjdirector', 'mzjchief'],
  },
  {
    code: 'emergency_duty',
    name: '应急值守组',
    orderNo: 3,
    remark: '节假日及汛期应急值守人员',
    members: ['yjjchief', 'njdleader', 'gridstaff'],
  },
];
