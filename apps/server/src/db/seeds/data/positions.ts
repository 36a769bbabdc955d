import type { SeedPos } from '../types.ts';

/** Positions (职位) of the demo district, from district leadership down to grid workers and enterprise fillers. */
export const POSITIONS: SeedPos[] = [
  { code: 'area_leader', name: '区领导', orderNo: 1 },
  { code: 'director', name: '局长', orderNo: 2 },
  { code: 'deputy_director', name: '副局长', orderNo: 3 },
  { code: 'section_chief', name: '科长', orderNo: 4 },
  { code: 'street_director', name: '街道主任', orderNo: 5 },
  { code: 'community_secretary', name: '社区书记', orderNo: 6 },
  { code: 'community_worker', name: '社区工作者', orderNo: 7 },
  { code: 'grid_worker', name: '网格员', orderNo: 8 },
  { code: 'clerk', name: '科员', orderNo: 9 },
  { code: 'sys_manager', name: '系统管理员', orderNo: 10 },
  { code: 'enterprise_filler', name: '企业填报员', orderNo: 11 },
];
