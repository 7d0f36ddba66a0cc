// The offline explorer: GraphiQL's prebuilt bundle on React, both served by the gateway from
// node_modules. The page carries its settings (endpoint, one tab per operation of operations/,
// the header preset) in a JSON script element, so that no inline script is needed.
/* global React, ReactDOM, GraphiQL */
const config = JSON.parse(document.getElementById("explorer-config").textContent);
const fetcher = GraphiQL.createFetcher({ url: new URL(config.endpoint, window.location.href).href });
ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultTabs: config.tabs,
    defaultHeaders: config.headers,
    defaultEditorToolsVisibility: "variables",
    shouldPersistHeaders: false,
  }),
);
