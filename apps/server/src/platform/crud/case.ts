/** JSON fields are camelCase, columns snake_case (DESIGN §4). */
export type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<SnakeToCamel<Tail>>}`
  : S;

export const toColumn = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const toField = (column: string): string =>
  column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
