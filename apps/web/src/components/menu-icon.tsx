import {
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  BookOutlined,
  ClusterOutlined,
  CodeOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FieldTimeOutlined,
  FileTextOutlined,
  FolderOutlined,
  FormOutlined,
  GlobalOutlined,
  HomeOutlined,
  IdcardOutlined,
  InfoCircleOutlined,
  LinkOutlined,
  MenuOutlined,
  PrinterOutlined,
  ProfileOutlined,
  SafetyOutlined,
  SettingOutlined,
  TableOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/**
 * Menu icons come from the server as names of whichever icon set an admin picked (`ele-Setting`,
 * `SettingOutlined`, `iconfont icon-user`…); a keyword table maps them onto a small bundled set.
 */
const KEYWORD_ICONS: [RegExp, ComponentType][] = [
  [/home|index/i, HomeOutlined],
  [/dashboard|odometer|monitor|screen/i, DashboardOutlined],
  [/chart|analy|statis|data-?board|histogram/i, BarChartOutlined],
  [/user-?center|avatar|idcard|personal/i, IdcardOutlined],
  [/team|group|role|users/i, TeamOutlined],
  [/user/i, UserOutlined],
  [/org|apartment|department|office|tree/i, ApartmentOutlined],
  [/cluster|tenant|company/i, ClusterOutlined],
  [/menu|list/i, MenuOutlined],
  [/setting|system|config|tools?-?config/i, SettingOutlined],
  [/tool|wrench|operation/i, ToolOutlined],
  [/dict|book|collection/i, BookOutlined],
  [/database|db|server|cpu/i, DatabaseOutlined],
  [/job|timer|time|clock|alarm/i, FieldTimeOutlined],
  [/log|document|tickets/i, ProfileOutlined],
  [/notice|bell|message|notification/i, BellOutlined],
  [/report|table|grid/i, TableOutlined],
  [/form|edit|pen/i, FormOutlined],
  [/file|paper/i, FileTextOutlined],
  [/folder|directory/i, FolderOutlined],
  [/print/i, PrinterOutlined],
  [/code|gen/i, CodeOutlined],
  [/tag|price/i, TagsOutlined],
  [/lock|safe|key|security|open-?access/i, SafetyOutlined],
  [/region|location|map|place|global/i, GlobalOutlined],
  [/link|connection/i, LinkOutlined],
  [/about|info|warning/i, InfoCircleOutlined],
];

export function menuIconComponent(name: string | null | undefined): ComponentType {
  if (!name) return AppstoreOutlined;
  return KEYWORD_ICONS.find(([pattern]) => pattern.test(name))?.[1] ?? AppstoreOutlined;
}

export function MenuIcon({ name }: { name: string | null | undefined }) {
  const Icon = menuIconComponent(name);
  return <Icon />;
}
