// The image's HEALTHCHECK (Dockerfile): `node scripts/healthcheck.mjs [url]` exits 0 when the
// component answers within 3 s, 1 otherwise. Without a URL it checks the component the container
// runs, read from PID 1's command (`node dist/people.mjs`), on its port variable or default: a
// subgraph's container is checked on its own port, not the gateway's. Liveness only: `/health`
// (the demo directory has none: any answer below 500 of its port). node:http, not fetch, which
// refuses some ports (6000, 6665–6669).
import { readFileSync } from "node:fs";
import { request } from "node:http";

/** each image command's port variable, default port and path */
const TARGETS = {
  start: ["GATEWAY_PORT", 4000, "/health"],
  gateway: ["GATEWAY_PORT", 4000, "/health"],
  people: ["PEOPLE_PORT", 4001, "/health"],
  organisation: ["ORGANISATION_PORT", 4002, "/health"],
  "legacy-time": ["LEGACY_TIME_PORT", 4003, "/health"],
  directory: ["DIRECTORY_PORT", 4010, "/"],
};

function component() {
  try {
    const command = readFileSync("/proc/1/cmdline", "utf8").split("\0");
    return command.map((arg) => /^dist\/([a-z-]+)\.mjs$/.exec(arg)?.[1]).find((name) => name in TARGETS) ?? "gateway";
  } catch {
    return "gateway";
  }
}

const name = component();
const [variable, port, path] = TARGETS[name];
const url = process.argv[2] ?? `http://127.0.0.1:${process.env[variable] || port}${path}`;
const healthy = (status) => (name === "directory" && !process.argv[2] ? status < 500 : status === 200);
const req = request(url, { timeout: 3000 }, (res) => {
  res.resume();
  process.exit(healthy(res.statusCode) ? 0 : 1);
});
req.on("timeout", () => req.destroy(new Error("timeout")));
req.on("error", () => process.exit(1));
req.end();
