import type DataLoader from "dataloader";
import type { GraphQLResolveInfo } from "graphql";
import { pageSize, selects, type ChildConnectionKey, type ConnectionArgs, type ConnectionResult } from "../shared/graphql/index.js";
import type { AdaptiveLoader } from "../shared/upstream/index.js";

/**
 * One parent's connection out of a `childConnectionLoader` (batched across the parents of the
 * request); the children are primed into their entity's loader.
 */
export async function pagedChildren<T extends { id: string }>(
  loader: DataLoader<ChildConnectionKey, ConnectionResult<T>, string>,
  parentId: string,
  args: ConnectionArgs,
  info: GraphQLResolveInfo,
  entities: AdaptiveLoader<T>,
): Promise<ConnectionResult<T>> {
  // checked here so that a bad `first` fails before the batch, not inside it for every parent
  pageSize(args.first);
  const connection = await loader.load({ parentId, args, totalCount: selects(info, "totalCount") });
  entities.primeAll(connection.nodes);
  return connection;
}
