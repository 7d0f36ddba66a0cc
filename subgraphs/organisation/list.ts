import type { GraphQLResolveInfo } from "graphql";
import { restConnection, selects, type ConnectionArgs, type ConnectionResult, type SubgraphContext } from "../shared/graphql/index.js";
import type { QueryParams } from "../shared/upstream/index.js";
import type { AdaptiveLoader } from "../shared/upstream/index.js";

/**
 * A root connection over one REST list page (`totalCount` asked only when selected). The items
 * are primed into the entity's loader: a later reference to one of them costs no call.
 */
export async function listConnection<T extends { id: string }>(
  ctx: SubgraphContext,
  info: GraphQLResolveInfo,
  path: string,
  query: QueryParams,
  args: ConnectionArgs,
  loader: AdaptiveLoader<T>,
): Promise<ConnectionResult<T>> {
  const connection = await restConnection<T>(ctx.upstream, path, query, args, { totalCount: selects(info, "totalCount") });
  loader.primeAll(connection.nodes);
  return connection;
}
