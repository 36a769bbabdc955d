export { DIY_IMPORT_KEYS, diyImportApi } from './diy-import.api.ts';
export { ImportButton } from './import-button.tsx';
export { IMPORT_POLL_MS, type ImportPeriod, ImportWizard, precheckWorkbook } from './import-wizard.tsx';
