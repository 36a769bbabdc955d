export { DIY_RECORD_KEYS, type DiyRecord, diyRecordApi } from './diy-record.api.ts';
export { numberText, plainText, type SummaryWords, valueText } from './record-format.ts';
export { RecordHistory, useSummaryWords } from './record-history.tsx';
export { RECORD_STATUSES, RecordFlags, RecordStatusTag, useRecordStatusText } from './record-status-tag.tsx';
export {
  RECORD_DRAWER_SIZE,
  RecordMeta,
  RecordViewDrawer,
  type RecordViewDrawerProps,
  ReturnedNotice,
} from './record-view-drawer.tsx';
