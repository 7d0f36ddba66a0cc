import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { COMPONENTS } from "../../scripts/build.mjs";

/**
 * The image and the deployment descriptions, checked against the code they run (no container
 * runtime here): the Dockerfile's base and commands, the compose file's and the Kubernetes
 * manifests' commands, ports, probes, variables and secrets. A manifest that names a variable no
 * process reads, a port another component listens on, or a command the build does not produce
 * fails here.
 */

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), "utf8");

/** every upper-case quoted name the processes' code mentions: the variables they can read */
const SOURCE_DIRS = ["platform", "gateway", "subgraphs", "directory", "scripts"];
function sourceFiles(dir: string): string[] {
  return readdirSync(new URL(`${dir}/`, ROOT), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(`${dir}/${entry.name}`) : /\.(ts|mjs)$/.test(entry.name) ? [`${dir}/${entry.name}`] : [],
  );
}
const KNOWN_VARIABLES = new Set(SOURCE_DIRS.flatMap(sourceFiles).flatMap((file) => [...read(file).matchAll(/"([A-Z][A-Z0-9_]{2,})"/g)].map((m) => m[1]!)));

/** the component a command runs, `node dist/<name>.mjs` */
function componentOf(command: unknown): string {
  expect(Array.isArray(command) && command.length === 2 && command[0] === "node", JSON.stringify(command)).toBe(true);
  const match = /^dist\/([a-z-]+)\.mjs$/.exec((command as string[])[1]!);
  expect(match, JSON.stringify(command)).not.toBeNull();
  expect(Object.keys(COMPONENTS)).toContain(match![1]);
  return match![1]!;
}

/** the port variable and default port of each component that listens on one */
const PORTS: Record<string, [string, number]> = {
  gateway: ["GATEWAY_PORT", 4000],
  people: ["PEOPLE_PORT", 4001],
  organisation: ["ORGANISATION_PORT", 4002],
  "legacy-time": ["LEGACY_TIME_PORT", 4003],
  directory: ["DIRECTORY_PORT", 4010],
};

it("the port variables and defaults are the code's", async () => {
  const { subgraphModules } = await import("../../scripts/subgraphs.js");
  for (const module of await subgraphModules()) expect(PORTS[module.name]).toEqual([module.portVariable, module.defaultPort]);
  const { loadGatewayConfig } = await import("../../gateway/config.js");
  expect(loadGatewayConfig({}).port).toBe(PORTS.gateway![1]);
  const { directoryPort } = await import("../../platform/config.js");
  expect(directoryPort({})).toBe(PORTS.directory![1]);
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);

  it("builds on the supported Node LTS slim image, in two stages", () => {
    const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
    const major = /^>=(\d+)\./.exec(engines)![1];
    expect(stages).toEqual([`node:${major}-slim`, `node:${major}-slim`]);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(dockerfile).toMatch(/^RUN node scripts\/build\.mjs$/m);
  });

  it("runs as a non-root user, node started directly, with a HEALTHCHECK on /health", () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(componentOf(cmd)).toBe("start");
    expect(dockerfile).not.toMatch(/^ENTRYPOINT/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .* CMD \["node", "scripts\/healthcheck\.mjs"\]$/m);
  });

  it("copies what the bundles read at run time", () => {
    for (const path of ["schema", "operations", "gateway/explorer", "scripts/healthcheck.mjs", "dist", "node_modules"]) {
      expect(dockerfile).toMatch(new RegExp(`^COPY (--from=build /app/)?${path} \\./${path}$`, "m"));
    }
  });
});

describe("deploy/compose.yaml", () => {
  const compose = parse(read("deploy/compose.yaml"), { merge: true }) as { services: Record<string, Service> };
  interface Service {
    command: unknown;
    environment: Record<string, string>;
    healthcheck: { test?: string[]; disable?: boolean };
    profiles?: string[];
    stop_grace_period?: string;
    expose?: string[];
    ports?: string[];
    depends_on?: Record<string, { condition: string }>;
  }
  const services = Object.entries(compose.services);

  it("runs the three subgraphs and the gateway, the directory only under its profile", () => {
    expect(Object.fromEntries(services.map(([name, s]) => [name, componentOf(s.command)]))).toEqual({
      directory: "directory",
      people: "people",
      organisation: "organisation",
      "legacy-time": "legacy-time",
      gateway: "gateway",
    });
    expect(compose.services.directory!.profiles).toEqual(["directory"]);
    expect(services.filter(([, s]) => s.profiles === undefined).map(([name]) => name)).toEqual(["people", "organisation", "legacy-time", "gateway"]);
    expect(Object.keys(compose.services.gateway!.depends_on!)).toEqual(["people", "organisation", "legacy-time"]);
  });

  it("each service listens on its port variable and checks its own /health there", () => {
    for (const [name, service] of services) {
      const [variable] = PORTS[name]!;
      const port = service.environment[variable];
      expect(port, `${name} ${variable}`).toMatch(/^\d+$/);
      expect(service.environment.HOST).toBe("0.0.0.0");
      if (service.healthcheck.disable) expect(name).toBe("directory");
      else expect(service.healthcheck.test).toEqual(["CMD", "node", "scripts/healthcheck.mjs", `http://127.0.0.1:${port}/health`]);
      expect([...(service.expose ?? []), ...(service.ports ?? []).map((p) => p.split(":")[1])]).toEqual([port]);
    }
  });

  it("the gateway reaches each subgraph at its service name and port; the secret is shared", () => {
    const gateway = compose.services.gateway!.environment;
    for (const [name, variable] of [["people", "PEOPLE_URL"], ["organisation", "ORGANISATION_URL"], ["legacy-time", "LEGACY_TIME_URL"]] as const) {
      expect(gateway[variable]).toBe(`http://${name}:${compose.services[name]!.environment[PORTS[name]![0]]}/graphql`);
      expect(compose.services[name]!.environment.SUBGRAPH_SECRET).toBe(gateway.SUBGRAPH_SECRET);
      expect(compose.services[name]!.environment.SUBGRAPH_CURSOR_SECRET).toMatch(/^\$\{SUBGRAPH_CURSOR_SECRET:\?/);
      expect(compose.services[name]!.environment.DIRECTORY_BASE_URL).toBe(`\${DIRECTORY_BASE_URL:-http://directory:${compose.services.directory!.environment.DIRECTORY_PORT}}`);
    }
    expect(gateway.SUBGRAPH_SECRET).toMatch(/^\$\{SUBGRAPH_SECRET:\?/);
  });

  it("every variable is one the code reads; the stop waits longer than grace and drain", () => {
    for (const [name, service] of services) {
      for (const variable of Object.keys(service.environment)) expect(KNOWN_VARIABLES, `${name}: ${variable}`).toContain(variable);
      const grace = Number(service.environment.SHUTDOWN_GRACE_MS) + Number(service.environment.SHUTDOWN_DRAIN_MS);
      expect(Number(/^(\d+)s$/.exec(service.stop_grace_period!)![1]) * 1000, name).toBeGreaterThan(grace);
    }
  });
});

describe("deploy/kubernetes", () => {
  interface Manifest {
    kind: string;
    metadata: { name: string };
    data?: Record<string, string>;
    stringData?: Record<string, string>;
    spec: any;
  }
  const dir = new URL("deploy/kubernetes/", ROOT);
  const manifests: Manifest[] = readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .flatMap((f) => parseAllDocuments(readFileSync(new URL(f, dir), "utf8")).map((d) => {
      expect(d.errors, f).toEqual([]);
      return d.toJS() as Manifest;
    }));
  const of = (kind: string) => manifests.filter((m) => m.kind === kind);
  const secret = of("Secret")[0]!;
  const config = of("ConfigMap")[0]!;

  it("a Deployment and a Service for each component, the directory's optional", () => {
    expect(of("Deployment").map((d) => d.metadata.name).sort()).toEqual(["directory", "gateway", "legacy-time", "organisation", "people"]);
    expect(of("Service").map((d) => d.metadata.name).sort()).toEqual(["directory", "gateway", "legacy-time", "organisation", "people"]);
    for (const variable of [...Object.keys(config.data!), ...Object.keys(secret.stringData!)]) expect(KNOWN_VARIABLES, variable).toContain(variable);
  });

  for (const name of ["gateway", "people", "organisation", "legacy-time", "directory"]) {
    it(`${name}: its command, port, probes, variables and secrets`, () => {
      const deployment = of("Deployment").find((d) => d.metadata.name === name)!;
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      expect(componentOf(container.command)).toBe(name);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      const env = Object.fromEntries((container.env as Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }>).map((e) => [e.name, e]));
      for (const variable of Object.keys(env)) expect(KNOWN_VARIABLES, `${name}: ${variable}`).toContain(variable);
      for (const { valueFrom } of Object.values(env)) {
        if (!valueFrom) continue;
        expect(valueFrom.secretKeyRef.name).toBe(secret.metadata.name);
        expect(Object.keys(secret.stringData!)).toContain(valueFrom.secretKeyRef.key);
      }
      const [variable] = PORTS[name]!;
      const port = Number(env[variable]!.value);
      expect(container.ports).toEqual([{ name: "http", containerPort: port }]);
      const service = of("Service").find((s) => s.metadata.name === name)!;
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(service.spec.ports[0].targetPort).toBe(port);
      if (name === "directory") {
        expect(container.livenessProbe).toMatchObject({ tcpSocket: { port } });
        return;
      }
      expect(container.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
      expect(container.livenessProbe.httpGet).toEqual({ path: "/health", port });
      expect(container.readinessProbe.httpGet).toEqual({ path: "/ready", port });
      expect(env.SUBGRAPH_SECRET!.valueFrom!.secretKeyRef.key).toBe("SUBGRAPH_SECRET");
      const drain = Number(config.data!.SHUTDOWN_GRACE_MS) + Number(config.data!.SHUTDOWN_DRAIN_MS);
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drain);
      if (name === "gateway") {
        for (const [subgraph, urlVariable] of [["people", "PEOPLE_URL"], ["organisation", "ORGANISATION_URL"], ["legacy-time", "LEGACY_TIME_URL"]] as const) {
          const target = of("Service").find((s) => s.metadata.name === subgraph)!;
          expect(env[urlVariable]!.value).toBe(`http://${subgraph}:${target.spec.ports[0].port}/graphql`);
        }
      } else {
        for (const key of ["SUBGRAPH_CURSOR_SECRET", "DIRECTORY_CLIENT_ID", "DIRECTORY_CLIENT_SECRET", "DIRECTORY_API_KEY"]) expect(env[key]?.valueFrom?.secretKeyRef.key).toBe(key);
      }
    });
  }
});
