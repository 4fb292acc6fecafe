/**
 * The two ts-morph structure kinds avaspec builds (import and export
 * declarations), as values that do not load ts-morph: reading
 * `StructureKind.ImportDeclaration` loads the whole of ts-morph and the
 * TypeScript compiler (about a third of the CLI's cold start), while the
 * printer writes these structures itself and needs ts-morph only for shapes it
 * does not cover. The numbers are ts-morph's own (test/generator/lazy-ts-morph.test.ts
 * compares them with the installed version).
 */
import type { StructureKind } from "ts-morph";

export const Kind = {
  ImportDeclaration: 16 as StructureKind.ImportDeclaration,
  ExportDeclaration: 11 as StructureKind.ExportDeclaration,
} as const;
