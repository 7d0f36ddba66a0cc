/**
 * The upstream access layer: one got-based client to both APIs of the directory service, shared
 * by the subgraphs. Subgraphs import from this file only.
 */
export * from "./types.js";
export { DEFAULT_SCOPES, loadUpstreamConfig, type UpstreamConfig } from "./config.js";
export { API_VERSION, Upstream, buildQuery } from "./client.js";
export { API_PREFIXES, routeOf } from "./routes.js";
export { UpstreamError, errorExtensions, toGraphQLError, type UpstreamErrorCode, type UpstreamErrorReason } from "./errors.js";
export {
  AdaptiveLoader,
  InFlightReads,
  PrimableLoader,
  LoaderRegistry,
  adaptiveLoader,
  groupedLoader,
  keyedLoader,
  listByIdsLoader,
  loadEvery,
  singleReadLoader,
  type AdaptiveLoaderOptions,
  type ParentKeys,
} from "./loaders.js";
export { isLegacyId, legacyAll, legacyAllByValues, legacyData, legacyCount, legacyItems, legacyListByIdsLoader, legacyPages, legacyWindow, pageWindows, type LegacyPaging } from "./legacy.js";
export { MAX_FILTER_VALUES, asError, chunk, compareText, followPages, groupBy, isListable, nextPageCursor, type FollowedPage } from "./util.js";
export { missingMembers, useExpectationLogger } from "./expectations.js";
