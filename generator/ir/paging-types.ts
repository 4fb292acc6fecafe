/**
 * Pagination in the IR: what a document declares (`x-avaspec-pagination`,
 * `x-speakeasy-pagination`, read by validate/pagination.ts) and how an
 * operation pages once declared or detected (ir/paging.ts). Re-exported by
 * types.ts.
 */

export type PagingStyle = "cursor" | "page" | "offset" | "url" | "link";

/** A pagination declaration: `false` (the operation does not page), or one or more ways to read it. */
export interface IrPagingDeclaration {
  pointer: string;
  extension: "x-avaspec-pagination" | "x-speakeasy-pagination";
  off?: true;
  /** One per alternative (a list declares several cursor pairs); unset fields are detected. Paths are property names. */
  ways: { pointer: string; style?: PagingStyle; param?: string; paramInBody?: true; next?: string[]; items?: string[]; size?: string; total?: string[]; totalPages?: string[]; hasMore?: string[]; start?: number }[];
}

/** A parameter of a paged operation: a declared one (its params key and wire name), or a field of the JSON request body. */
export interface IrPagingParam {
  key: string;
  name: string;
  inBody?: true;
}

/** How a list operation pages (runtime/paginate.ts describes each style). Paths are property names into a page. */
export interface IrPaging {
  style: PagingStyle;
  declared: boolean;
  items: string[];
  cursors?: { param: IrPagingParam; next: string[] }[];
  param?: IrPagingParam;
  start?: number;
  size?: IrPagingParam & { default?: number };
  next?: string[];
  hasMore?: string[];
  total?: string[];
  totalPages?: string[];
  tokenLifetime?: number;
}
