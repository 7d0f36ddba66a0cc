import "reflect-metadata";
import { runSubgraphMain } from "../shared/graphql/index.js";
import { subgraph } from "./index.js";

await runSubgraphMain(subgraph);
