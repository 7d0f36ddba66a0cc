export * from "./connection.js";
export * from "./common-types.js";
export * from "./federation.js";
export * from "./http.js";
export * from "./scalars.js";
export * from "./server.js";
export * from "./subgraph.js";
export * from "./translation.js";
