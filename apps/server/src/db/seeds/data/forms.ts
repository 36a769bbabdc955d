import type { SeedForm, SeedFormCategory, SeedFormRecord, SeedOrg } from '../types.ts';
import { ORGS } from './orgs.ts';

/**
 * Demo report forms of the Huangpu district (issue 5): three categories and three published forms with
 * records in every state, filed by the demo users and reviewed by the district leader (hpleader).
 */

export const FORM_CATEGORIES: SeedFormCategory[] = [
  { name: '企业填报', icon: 'ele-OfficeBuilding', orderNo: 1, remark: '面向辖区企业的登记与统计报表' },
  { name: '社区治理', icon: 'ele-House', orderNo: 2, remark: '街道、社区与网格的人口及治理报表' },
  { name: '安全生产', icon: 'ele-Warning', orderNo: 3, remark: '安全生产检查与隐患排查记录' },
];

const options = (items: [string, string][]) => ({
  source: 'options' as const,
  items: items.map(([value, label]) => ({ value, label })),
});

const DISTRICT = '310101';

const ENTERPRISE_FORM: SeedForm = {
  title: '企业基本情况登记表',
  category: '企业填报',
  ownerOrgCode: 'HPQ-SCJGJ',
  fillers: { orgCodes: [DISTRICT], enterprises: true },
  viewers: { orgCodes: ['HPQ-SCJGJ', 'HPQ-FGW', 'HPQ-SWW'] },
  reviewerAccounts: ['hpleader'],
  needsReview: true,
  orderNo: 1,
  remark: '辖区企业每年登记一次基本情况，变更时及时更新',
  design: {
    labelWidth: 140,
    numbering: { prefix: 'QY', datePart: 'yyyyMM', digits: 4 },
    fields: [
      { id: 'sn', type: 'serialNo', label: '登记编号', span: 12, readOnly: true },
      {
        id: 'regdate',
        type: 'date',
        label: '登记日期',
        span: 12,
        required: true,
        default: { kind: 'today' },
      },
      { id: 'secbase', type: 'section', label: '企业信息' },
      { id: 'name', type: 'text', label: '企业名称', span: 12, required: true, maxLength: 100 },
      {
        id: 'uscc',
        type: 'text',
        label: '统一社会信用代码',
        span: 12,
        required: true,
        unique: 'form',
        pattern: { regex: '^[0-9A-HJ-NPQRTUWXY]{18}$', message: '统一社会信用代码为18位数字或大写字母' },
      },
      {
        id: 'kind',
        type: 'select',
        label: '企业类型',
        span: 12,
        required: true,
        options: options([
          ['llc', '有限责任公司'],
          ['jsc', '股份有限公司'],
          ['sole', '个人独资企业'],
          ['partner', '合伙企业'],
          ['branch', '分公司'],
        ]),
      },
      {
        id: 'industry',
        type: 'select',
        label: '所属行业',
        span: 12,
        required: true,
        options: options([
          ['it', '信息传输、软件和信息技术服务业'],
          ['retail', '批发和零售业'],
          ['food', '住宿和餐饮业'],
          ['biz', '租赁和商务服务业'],
          ['culture', '文化、体育和娱乐业'],
        ]),
      },
      {
        id: 'scale',
        type: 'radio',
        label: '是否规模以上企业',
        span: 12,
        required: true,
        options: { source: 'dict', dictCode: 'yes_no' },
      },
      { id: 'founded', type: 'date', label: '成立日期', span: 12, required: true, max: '2026-12-31' },
      { id: 'area', type: 'region', label: '注册地（区县）', span: 12, default: { kind: 'fillerRegion' } },
      { id: 'address', type: 'text', label: '注册地址', span: 12, required: true, maxLength: 200 },
      {
        id: 'capital',
        type: 'money',
        label: '注册资本（万元）',
        span: 12,
        required: true,
        min: 0,
        precision: 2,
        moneyCapital: true,
      },
      { id: 'revenue', type: 'money', label: '上年营业收入（万元）', span: 12, min: 0, precision: 2 },
      { id: 'staff', type: 'integer', label: '从业人数', span: 12, required: true, min: 0, max: 1000000 },
      { id: 'scope', type: 'textarea', label: '经营范围', maxLength: 1000 },
      { id: 'secman', type: 'section', label: '法定代表人与联系人' },
      { id: 'legal', type: 'text', label: '法定代表人', span: 12, required: true, maxLength: 32 },
      {
        id: 'legalid',
        type: 'idCard',
        label: '法定代表人身份证号',
        span: 12,
        required: true,
        listHidden: true,
      },
      {
        id: 'contact',
        type: 'text',
        label: '联系人',
        span: 8,
        required: true,
        default: { kind: 'fillerName' },
      },
      { id: 'mobile', type: 'mobile', label: '联系手机', span: 8, required: true },
      { id: 'email', type: 'email', label: '电子邮箱', span: 8 },
      {
        id: 'license',
        type: 'attachment',
        label: '营业执照（扫描件）',
        accept: ['pdf', 'jpg', 'jpeg', 'png'],
        maxFiles: 3,
        help: '请上传加盖公章的营业执照扫描件',
      },
      { id: 'tip', type: 'staticText', label: '声明', content: '本单位承诺所填信息真实、准确、完整。' },
    ],
  },
  records: [
    {
      account: 'qyfiller',
      state: 'approved',
      daysAgo: 20,
      values: {
        regdate: '2026-10-30',
        name: '上海黄浦数智科技有限公司',
        uscc: '91310101MA1FP7K316',
        kind: 'llc',
        industry: 'it',
        scale: '1',
        founded: '2018-06-12',
        area: DISTRICT,
        address: '上海市黄浦区南京东路 299 号 12 楼',
        capital: 2000,
        revenue: 18650.5,
        staff: 186,
        scope: '软件开发；信息系统集成服务；数据处理和存储支持服务；技术咨询。',
        legal: '陈立新',
        legalid: '310101197805123013',
        mobile: '13917261234',
        email: 'office@hpszkj.example.com',
      },
    },
    {
      account: 'qyfiller2',
      state: 'returned',
      comment: '注册资本与营业执照不一致，请核对后重新提交。',
      daysAgo: 12,
      values: {
        regdate: '2026-11-08',
        name: '上海豫园老街餐饮管理有限公司',
        uscc: '91310101MA1G0XQ514',
        kind: 'llc',
        industry: 'food',
        scale: '2',
        founded: '2016-03-22',
        area: DISTRICT,
        address: '上海市黄浦区福佑路 168 号',
        capital: 500,
        revenue: 2380,
        staff: 64,
        scope: '餐饮服务；餐饮管理；食品销售。',
        legal: '王美华',
        legalid: '310101198509234020',
        mobile: '13816543210',
      },
    },
    {
      account: 'qyfiller2',
      state: 'submitted',
      daysAgo: 3,
      values: {
        regdate: '2026-11-17',
        name: '上海豫园老街餐饮管理有限公司方浜中路分店',
        uscc: '91310101MA1G1BK72J',
        kind: 'branch',
        industry: 'food',
        scale: '2',
        founded: '2021-09-01',
        area: DISTRICT,
        address: '上海市黄浦区方浜中路 265 号',
        capital: 0,
        staff: 22,
        legal: '王美华',
        legalid: '310101198509234020',
        mobile: '13816543210',
      },
    },
    {
      account: 'qyfiller',
      state: 'draft',
      daysAgo: 1,
      values: {
        regdate: '2026-11-20',
        name: '上海黄浦数智科技有限公司外滩分公司',
        kind: 'branch',
        industry: 'it',
        address: '上海市黄浦区中山东一路 18 号',
        staff: 15,
      },
    },
  ],
};

/** Codes of the orgs of a type in the demo tree, in tree order. */
function codesOf(type: SeedOrg['type'], orgs: readonly SeedOrg[] = ORGS): string[] {
  return orgs.flatMap((o) => [...(o.type === type ? [o.code] : []), ...codesOf(type, o.children ?? [])]);
}

/**
 * Filed by every community (a grid may file its part; it counts for its community) and by 区发展和改革委员会 for
 * its collective household: the units its roll-up expects (docs/rollups.md).
 */
const POPULATION_FORM: SeedForm = {
  title: '社区人口月报',
  category: '社区治理',
  ownerOrgCode: 'HPQ-MZJ',
  fillers: { orgCodes: [...codesOf('community'), 'HPQ-FGW'] },
  viewers: { orgCodes: ['HPQ-MZJ', 'HPQ-TJJ'] },
  reviewerAccounts: ['hpleader'],
  needsReview: true,
  orderNo: 2,
  remark: '各社区（网格）每月 5 日前报送上月人口情况',
  design: {
    labelWidth: 130,
    numbering: { prefix: 'RK', datePart: 'yyyyMM', digits: 4 },
    fields: [
      { id: 'sn', type: 'serialNo', label: '报表编号', span: 12, readOnly: true },
      {
        id: 'month',
        type: 'month',
        label: '统计月份',
        span: 12,
        required: true,
        default: { kind: 'period' },
      },
      {
        id: 'unit',
        type: 'org',
        label: '填报单位',
        span: 12,
        required: true,
        default: { kind: 'fillerOrg' },
      },
      {
        id: 'filler',
        type: 'text',
        label: '填报人',
        span: 12,
        required: true,
        default: { kind: 'fillerName' },
      },
      { id: 'secpop', type: 'section', label: '人口情况（人）' },
      // Stock figures move little month to month: each period starts from the unit's last one (每期沿用).
      { id: 'huji', type: 'integer', label: '户籍人口', span: 8, required: true, min: 0, carry: true },
      { id: 'liudong', type: 'integer', label: '来沪人员', span: 8, required: true, min: 0, carry: true },
      { id: 'jingwai', type: 'integer', label: '境外人员', span: 8, min: 0, carry: true },
      {
        id: 'total',
        type: 'formula',
        label: '实有人口合计',
        span: 8,
        formula: '{huji} + {liudong} + {jingwai}',
        precision: 0,
      },
      { id: 'elderly', type: 'integer', label: '60 岁及以上', span: 8, required: true, min: 0, carry: true },
      {
        id: 'elderrate',
        type: 'formula',
        label: '老年人口占比（%）',
        span: 8,
        formula: 'ROUND({elderly} * 100 / ({huji} + {liudong} + {jingwai}), 2)',
        precision: 2,
      },
      { id: 'secchange', type: 'section', label: '本月变动（人）' },
      { id: 'born', type: 'integer', label: '出生', span: 6, min: 0 },
      { id: 'died', type: 'integer', label: '死亡', span: 6, min: 0 },
      { id: 'movein', type: 'integer', label: '迁入', span: 6, min: 0 },
      { id: 'moveout', type: 'integer', label: '迁出', span: 6, min: 0 },
      {
        id: 'net',
        type: 'formula',
        label: '净增人口',
        span: 12,
        formula: '{born} - {died} + {movein} - {moveout}',
        precision: 0,
      },
      { id: 'phone', type: 'mobile', label: '联系电话', span: 12, carry: true },
      { id: 'remark', type: 'textarea', label: '情况说明', maxLength: 500 },
    ],
  },
  records: [
    // Three months back (closed after review): the communities of 南京东路街道.
    population('gzlstaff', 3, 'approved', [2986, 1012, 41, 1180, 2, 5, 9, 6]),
    population('njdlstaff', 3, 'approved', [2410, 655, 12, 1032, 1, 3, 4, 8], '310101002002'),
    population('njdlstaff', 3, 'approved', [1875, 430, 8, 802, 0, 2, 3, 3], '310101002003'),
    // Two months back.
    population('gridstaff', 2, 'approved', [3126, 842, 37, 1268, 4, 6, 11, 9]),
    population('gzlstaff', 2, 'approved', [2990, 1008, 40, 1183, 3, 2, 6, 7]),
    population('njdlstaff', 2, 'approved', [2405, 662, 12, 1035, 2, 4, 3, 5], '310101002002'),
    {
      account: 'njdlstaff',
      orgCode: '310101002003',
      state: 'approved',
      daysAgo: 0,
      periodsAgo: 2,
      zero: true,
      values: {},
    },
    // Last month: one returned, some waiting for review, one approved.
    {
      account: 'gridstaff',
      state: 'returned',
      comment: '来沪人员数与网格台账不符，请核实后重新报送。',
      daysAgo: 0,
      periodsAgo: 1,
      values: {
        ...populationValues([3121, 905, 36, 1271, 3, 8, 7, 7]),
        remark: '本月辖区新增一处在建工地，来沪务工人员增加。',
      },
    },
    {
      account: 'fgwstaff',
      state: 'submitted',
      daysAgo: 0,
      periodsAgo: 1,
      values: {
        ...populationValues([0, 12, 0, 0, 0, 0, 0, 0]),
        phone: '13601820315',
        remark: '委机关集体户人员情况。',
      },
    },
    population('gzlstaff', 1, 'submitted', [2995, 1001, 39, 1186, 2, 3, 5, 4]),
    population('njdlstaff', 1, 'approved', [2398, 670, 13, 1037, 1, 2, 2, 6], '310101002002'),
    // This month: a draft.
    {
      account: 'gridstaff',
      state: 'draft',
      daysAgo: 1,
      periodsAgo: 0,
      values: { month: { $period: true }, huji: 3119, liudong: 876, elderly: 1275 },
    },
  ],
  periods: {
    settings: { kind: 'month', dueDays: 5, graceDays: 3, onePerOrg: true },
    back: 3,
    closed: 1,
  },
};

/** Population figures: 户籍, 来沪, 境外, 60+, 出生, 死亡, 迁入, 迁出. */
function populationValues(n: readonly number[]): Record<string, unknown> {
  const [huji, liudong, jingwai, elderly, born, died, movein, moveout] = n;
  return { month: { $period: true }, huji, liudong, jingwai, elderly, born, died, movein, moveout };
}

function population(
  account: string,
  periodsAgo: number,
  state: 'submitted' | 'approved',
  figures: readonly number[],
  orgCode?: string,
): SeedFormRecord {
  return {
    account,
    state,
    daysAgo: 0,
    periodsAgo,
    values: { ...populationValues(figures), phone: '13701830021' },
    ...(orgCode ? { orgCode } : {}),
  };
}

const SAFETY_FORM: SeedForm = {
  title: '安全生产检查记录',
  category: '安全生产',
  ownerOrgCode: 'HPQ-YJGLJ',
  fillers: { orgCodes: [DISTRICT] },
  viewers: { orgCodes: ['HPQ-YJGLJ'] },
  reviewerAccounts: ['hpleader'],
  needsReview: true,
  orderNo: 3,
  remark: '日常、专项及节假日前安全生产检查，发现隐患逐条登记并跟踪整改',
  design: {
    labelWidth: 120,
    numbering: { prefix: 'AQ', datePart: 'yyyyMMdd', digits: 3 },
    fields: [
      { id: 'sn', type: 'serialNo', label: '记录编号', span: 12, readOnly: true },
      {
        id: 'checkdate',
        type: 'date',
        label: '检查日期',
        span: 12,
        required: true,
        default: { kind: 'today' },
      },
      { id: 'target', type: 'enterprise', label: '被检查单位', span: 12, required: true },
      {
        id: 'checktype',
        type: 'radio',
        label: '检查类型',
        span: 12,
        required: true,
        options: options([
          ['daily', '日常检查'],
          ['special', '专项检查'],
          ['holiday', '节假日前检查'],
        ]),
      },
      {
        id: 'inspector',
        type: 'text',
        label: '检查人员',
        span: 12,
        required: true,
        default: { kind: 'fillerName' },
      },
      { id: 'place', type: 'text', label: '检查部位', span: 12, maxLength: 100 },
      {
        id: 'hazards',
        type: 'subTable',
        label: '隐患明细',
        maxRows: 50,
        columns: [
          { id: 'desc', type: 'text', label: '隐患描述', required: true, maxLength: 200 },
          {
            id: 'level',
            type: 'select',
            label: '隐患等级',
            required: true,
            options: options([
              ['normal', '一般隐患'],
              ['major', '重大隐患'],
            ]),
          },
          { id: 'deadline', type: 'date', label: '整改期限' },
          { id: 'fixed', type: 'radio', label: '已整改', options: { source: 'dict', dictCode: 'yes_no' } },
        ],
      },
      {
        id: 'count',
        type: 'formula',
        label: '隐患数量',
        span: 12,
        formula: 'COUNT({hazards})',
        precision: 0,
      },
      {
        id: 'result',
        type: 'select',
        label: '检查结论',
        span: 12,
        required: true,
        options: options([
          ['pass', '未发现隐患'],
          ['fix', '限期整改'],
          ['stop', '停产停业整顿'],
        ]),
      },
      { id: 'photos', type: 'image', label: '现场照片', accept: ['jpg', 'jpeg', 'png'], maxFiles: 9 },
      { id: 'note', type: 'textarea', label: '备注', maxLength: 500 },
    ],
  },
  records: [
    {
      account: 'fgwstaff',
      state: 'approved',
      daysAgo: 25,
      values: {
        checkdate: '2026-10-27',
        target: { $org: '91310101MA1FP7K316' },
        checktype: 'daily',
        place: '12 楼机房及办公区',
        hazards: [{ desc: '机房灭火器压力不足', level: 'normal', deadline: '2026-11-03', fixed: '1' }],
        result: 'fix',
        note: '已现场督促更换灭火器。',
      },
    },
    {
      account: 'gridstaff',
      state: 'submitted',
      daysAgo: 5,
      values: {
        checkdate: '2026-11-16',
        target: { $org: '91310101MA1G0XQ514' },
        checktype: 'special',
        place: '后厨及燃气管道',
        hazards: [
          { desc: '燃气报警器未与切断阀联动', level: 'major', deadline: '2026-11-23', fixed: '2' },
          { desc: '后厨排油烟管道油污较多', level: 'normal', deadline: '2026-11-30', fixed: '2' },
        ],
        result: 'fix',
      },
    },
    {
      account: 'gridstaff',
      state: 'returned',
      comment: '请补充隐患的整改期限，并上传现场照片。',
      daysAgo: 9,
      values: {
        checkdate: '2026-11-11',
        target: { $org: '91310101MA1FL2W813' },
        checktype: 'holiday',
        place: '安全出口及消防通道',
        hazards: [{ desc: '安全出口堆放杂物', level: 'normal' }],
        result: 'fix',
      },
    },
    {
      account: 'fgwstaff',
      state: 'draft',
      daysAgo: 0,
      values: {
        checkdate: '2026-11-21',
        target: { $org: '91310101MA1HB6N217' },
        checktype: 'daily',
        hazards: [],
      },
    },
  ],
};

export const FORMS: SeedForm[] = [ENTERPRISE_FORM, POPULATION_FORM, SAFETY_FORM];
