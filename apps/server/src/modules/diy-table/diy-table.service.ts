/**
 * Report form definitions (`diy_table`): this file is the module's face to other modules. Its parts: the
 * administrators' rows (`form-rows.ts`), settings writes (`form-write.ts`), the designer (`form-design.ts`),
 * published designs and columns (`form-version.ts`), the fillers' list and pickers (`form-items.ts`) and
 * cloning (`form-clone.ts`).
 */

export { formItemOf, tableList } from './form-items.ts';
export { columnsAt, EMPTY_DESIGN, versionDesign } from './form-version.ts';
