import type { SeedOrg, SeedOrgType } from '../types.ts';

/**
 * The demo district: 上海市黄浦区 (profile 0, area code 310101).
 *
 * Codes are natural keys and never change:
 * - the district, streets and communities use their statistical division codes (district 6 digits,
 *   street 9, 居民委员会 12); the street codes are the real ones, the community codes are illustrative;
 * - grids append two digits to their community's code (14 digits);
 * - district departments use `HPQ-<abbreviation>` (sections add another `-<abbreviation>`);
 * - enterprises use their 18-character unified social credit code (check character valid).
 * Enterprises hang under the street where they are registered (属地管理), so a street's data scope
 * covers its enterprises.
 */

type CommunitySpec = { seq: string; name: string };
type StreetSpec = {
  code: string;
  name: string;
  communities: CommunitySpec[];
  enterprises?: { code: string; name: string; remark: string }[];
};

const GRID_NAMES = ['第一网格', '第二网格'];

function grids(communityCode: string): SeedOrg[] {
  return GRID_NAMES.map((name, i) => ({
    code: `${communityCode}${String(i + 1).padStart(2, '0')}`,
    name,
    type: 'grid' as SeedOrgType,
    orderNo: i + 1,
  }));
}

function street(spec: StreetSpec, orderNo: number): SeedOrg {
  const communities: SeedOrg[] = spec.communities.map((c, i) => {
    const code = `${spec.code}${c.seq}`;
    return { code, name: c.name, type: 'community', regionCode: code, orderNo: i + 1, children: grids(code) };
  });
  const enterprises: SeedOrg[] = (spec.enterprises ?? []).map((e, i) => ({
    code: e.code,
    name: e.name,
    type: 'enterprise',
    orderNo: 100 + i,
    remark: e.remark,
  }));
  return {
    code: spec.code,
    name: spec.name,
    type: 'street',
    regionCode: spec.code,
    orderNo,
    children: [...communities, ...enterprises],
  };
}

const STREETS: StreetSpec[] = [
  {
    code: '310101002',
    name: '南京东路街道',
    communities: [
      { seq: '001', name: '贵州路居民委员会' },
      { seq: '002', name: '福州路居民委员会' },
      { seq: '003', name: '宁波路居民委员会' },
    ],
    enterprises: [
      {
        code: '91310101MA1FP7K316',
        name: '上海黄浦数智科技有限公司',
        remark: '演示企业：软件和信息技术服务',
      },
    ],
  },
  {
    code: '310101013',
    name: '外滩街道',
    communities: [
      { seq: '001', name: '金陵东路居民委员会' },
      { seq: '002', name: '四川南路居民委员会' },
    ],
    enterprises: [
      { code: '91310101MA1FL2W813', name: '上海外滩云帆信息服务有限公司', remark: '演示企业：商务信息咨询' },
    ],
  },
  {
    code: '310101018',
    name: '豫园街道',
    communities: [
      { seq: '001', name: '方浜中路居民委员会' },
      { seq: '002', name: '福佑路居民委员会' },
    ],
    enterprises: [
      { code: '91310101MA1G0XQ514', name: '上海豫园老街餐饮管理有限公司', remark: '演示企业：餐饮服务' },
    ],
  },
  {
    code: '310101021',
    name: '打浦桥街道',
    communities: [
      { seq: '001', name: '丽园路居民委员会' },
      { seq: '002', name: '蒙自路居民委员会' },
      { seq: '003', name: '泰康路居民委员会' },
    ],
    enterprises: [
      {
        code: '91310101MA1HB6N217',
        name: '上海打浦桥文创商贸有限公司',
        remark: '演示企业：文化用品批发零售',
      },
    ],
  },
  {
    code: '310101022',
    name: '淮海中路街道',
    communities: [
      { seq: '001', name: '思南路居民委员会' },
      { seq: '002', name: '复兴中路居民委员会' },
    ],
  },
];

const DEPARTMENTS: SeedOrg[] = [
  { code: 'HPQ-ZFB', name: '区政府办公室', type: 'department', orderNo: 1 },
  { code: 'HPQ-FGW', name: '区发展和改革委员会', type: 'department', orderNo: 2 },
  {
    code: 'HPQ-TJJ',
    name: '区统计局',
    type: 'department',
    orderNo: 3,
    children: [
      { code: 'HPQ-TJJ-ZHK', name: '综合统计科', type: 'department', orderNo: 1 },
      { code: 'HPQ-TJJ-SHK', name: '社会统计科', type: 'department', orderNo: 2 },
    ],
  },
  {
    code: 'HPQ-MZJ',
    name: '区民政局',
    type: 'department',
    orderNo: 4,
    children: [
      { code: 'HPQ-MZJ-JZK', name: '社会救助科', type: 'department', orderNo: 1 },
      { code: 'HPQ-MZJ-YLK', name: '养老服务科', type: 'department', orderNo: 2 },
    ],
  },
  { code: 'HPQ-SCJGJ', name: '区市场监督管理局', type: 'department', orderNo: 5 },
  { code: 'HPQ-YJGLJ', name: '区应急管理局', type: 'department', orderNo: 6 },
  { code: 'HPQ-SWW', name: '区商务委员会', type: 'department', orderNo: 7 },
  {
    code: 'HPQ-DSJZX',
    name: '区大数据中心',
    type: 'department',
    orderNo: 8,
    remark: '平台运维单位',
  },
];

export const ORGS: SeedOrg[] = [
  {
    code: '310101',
    name: '黄浦区',
    type: 'district',
    regionCode: '310101',
    orderNo: 1,
    remark: '上海市黄浦区',
    children: [
      ...STREETS.map((s, i) => street(s, i + 1)),
      ...DEPARTMENTS.map((d) => ({ ...d, orderNo: 50 + d.orderNo })),
    ],
  },
];
