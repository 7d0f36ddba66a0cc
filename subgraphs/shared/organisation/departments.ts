import type { Static } from "@sinclair/typebox";
import type * as Shapes from "../../../contract/rest-shapes.js";
import type { SubgraphContext } from "../graphql/index.js";
import { adaptiveLoader, type AdaptiveLoaderOptions } from "../upstream/index.js";

/**
 * The current API's departments (`/departments`), read by the organisation subgraph and, since the
 * legacy `/api/v3/departments` stopped answering (September 2026), by legacy-time's
 * `Department.legacy` too: one loader of them, shared, as work-contracts.ts shares the work
 * contracts' read.
 */

/** The department shape of docs/interface.md#department (what `/departments` serves: docs/decisions.md#reads-named-only-by-address). */
export type RestDepartment = Static<typeof Shapes.department>;

/** A single read's path in a collection: `/departments/{id}`. */
export const itemPath = (collection: string) => (id: string) => `/${collection}/${encodeURIComponent(id)}`;

/** The shared adaptive loader, with single reads only when SUBGRAPH_MECHANISMS_OFF lists `adaptive-loaders`. */
export const referenceLoader = <T extends { id: string }>(ctx: SubgraphContext, options: AdaptiveLoaderOptions) =>
  adaptiveLoader<T>(ctx.upstream, { ...options, singleReadsOnly: ctx.mechanismsOff?.has("adaptive-loaders") ?? false });

/** Departments by id: single reads or the whole collection, whichever is cheaper; `all()` the whole tree, once per request. */
export const departmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("department", () => referenceLoader<RestDepartment>(ctx, { list: "/departments", single: itemPath("departments") }));
