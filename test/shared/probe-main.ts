import "reflect-metadata";
import { runSubgraphMain } from "../../subgraphs/shared/graphql/index.js";
import { probeSubgraph } from "./probe-subgraph.js";

await runSubgraphMain(probeSubgraph);
