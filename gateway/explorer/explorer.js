// The offline explorer: GraphiQL's prebuilt bundle on React, both served by the gateway from
// node_modules. The page carries its settings (endpoint, one tab per operation of operations/,
// the header preset) in a JSON script element, so that no inline script is needed.
/* global React, ReactDOM, GraphiQL */
const config = JSON.parse(document.getElementById("explorer-config").textContent);
// GraphiQL 3 fills the editors of the first tab from its `variables` and `headers` props, not
// from `defaultTabs`: on a first visit (no tabs stored yet) they carry the first tab's
const firstVisit = !window.localStorage.getItem("graphiql:tabState");
const fetcher = GraphiQL.createFetcher({ url: new URL(config.endpoint, window.location.href).href });
ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultTabs: config.tabs,
    defaultHeaders: config.headers,
    ...(firstVisit && config.tabs[0] ? { variables: config.tabs[0].variables, headers: config.tabs[0].headers ?? config.headers } : {}),
    defaultEditorToolsVisibility: "variables",
    shouldPersistHeaders: false,
  }),
);
