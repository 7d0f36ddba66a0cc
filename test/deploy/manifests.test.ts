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
const SOURCE_DIRS = ["platform", "contract", "gateway", "subgraphs", "directory", "scripts"];
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

  it("builds on the supported Node LTS slim image pinned by digest, in two stages", () => {
    const pkg = JSON.parse(read("package.json")) as { engines: { node: string }; devDependencies: Record<string, string> };
    const major = /^>=(\d+)\./.exec(pkg.engines.node)![1];
    expect(stages).toHaveLength(2);
    for (const stage of stages) expect(stage).toMatch(new RegExp(`^node:${major}-slim@sha256:[0-9a-f]{64}$`));
    expect(stages[1]).toBe(stages[0]);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(dockerfile).toMatch(/^RUN node scripts\/build\.mjs$/m);
    // the tracer of the runtime files at package.json's version, outside the install
    expect(dockerfile).toContain(`npm install --prefix /tools --no-save --no-audit --no-fund @vercel/nft@${pkg.devDependencies["@vercel/nft"]}`);
    expect(dockerfile).toMatch(/^RUN NFT_MODULE=\/tools\/node_modules\/@vercel\/nft\/out\/index\.js node scripts\/runtime\.mjs \/runtime$/m);
  });

  it("runs as a non-root user, node started directly, with a HEALTHCHECK on /health", () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(componentOf(cmd)).toBe("start");
    expect(dockerfile).not.toMatch(/^ENTRYPOINT/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .* CMD \["node", "scripts\/healthcheck\.mjs"\]$/m);
  });

  it("the runtime stage holds the runtime files alone (scripts/runtime.mjs), with what the build stage needs for them", async () => {
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect([...runtimeStage.matchAll(/^COPY .*$/gm)].map((m) => m[0])).toEqual(["COPY --from=build /runtime ./"]);
    const { PROJECT_FILES } = await import("../../scripts/runtime.mjs");
    const buildStage = dockerfile.slice(0, dockerfile.lastIndexOf("\nFROM "));
    for (const path of PROJECT_FILES.filter((p) => p !== "dist")) {
      const top = path.split("/")[0]!;
      expect(buildStage, path).toMatch(new RegExp(`^COPY ${top} \\./${top}$`, "m"));
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

  const nodeServices = services.filter(([name]) => name !== "redis");

  it("runs Redis, the three subgraphs and the gateway, the directory only under its profile", () => {
    expect(Object.fromEntries(nodeServices.map(([name, s]) => [name, componentOf(s.command)]))).toEqual({
      directory: "directory",
      people: "people",
      organisation: "organisation",
      "legacy-time": "legacy-time",
      gateway: "gateway",
    });
    expect(compose.services.directory!.profiles).toEqual(["directory"]);
    expect(services.filter(([, s]) => s.profiles === undefined).map(([name]) => name)).toEqual(["redis", "people", "organisation", "legacy-time", "gateway"]);
    expect(Object.keys(compose.services.gateway!.depends_on!)).toEqual(["redis", "people", "organisation", "legacy-time"]);
  });

  it("every replica of the gateway and the subgraphs shares the one Redis", () => {
    expect(compose.services.redis!.expose).toEqual(["6379"]);
    expect(compose.services.redis!.healthcheck.test).toEqual(["CMD", "redis-cli", "ping"]);
    for (const name of ["gateway", "people", "organisation", "legacy-time"]) {
      expect(compose.services[name]!.environment.REDIS_URL, name).toBe("redis://redis:6379");
      expect(compose.services[name]!.depends_on?.redis, name).toEqual({ condition: "service_healthy" });
    }
  });

  it("each service listens on its port variable and checks its own /health there", () => {
    for (const [name, service] of nodeServices) {
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
    for (const [name, service] of nodeServices) {
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
  const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
  const objects: Array<{ file: string; manifest: Manifest }> = files.flatMap((f) =>
    parseAllDocuments(readFileSync(new URL(f, dir), "utf8")).map((d) => {
      expect(d.errors, f).toEqual([]);
      return { file: f, manifest: d.toJS() as Manifest };
    }),
  );
  const kustomization = objects.find((o) => o.file === "kustomization.yaml")!.manifest as unknown as { resources: string[]; images: Array<{ name: string }>; replicas: Array<{ name: string; count: number }> };
  const manifests = objects.filter((o) => o.file !== "kustomization.yaml").map((o) => o.manifest);
  const of = (kind: string) => manifests.filter((m) => m.kind === kind);
  const named = (kind: string, name: string) => of(kind).find((m) => m.metadata.name === name)!;
  const secret = of("Secret")[0]!;
  const config = of("ConfigMap")[0]!;
  const SERVED = ["gateway", "people", "organisation", "legacy-time"];
  const metricsPort = Number(config.data!.METRICS_PORT);

  it("every object validates against the Kubernetes schemas (kubernetes-models)", async () => {
    expect(manifests.length).toBeGreaterThanOrEqual(30);
    for (const manifest of manifests) {
      const { apiVersion, kind } = manifest as unknown as { apiVersion: string; kind: string };
      const module = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
      const Model = module[kind]!;
      expect(() => new Model(manifest).validate(), `${kind} ${manifest.metadata.name}`).not.toThrow();
    }
    // the schemas do catch a wrong object
    const { Deployment } = await import("kubernetes-models/apps/v1/Deployment");
    const broken = structuredClone(named("Deployment", "gateway")) as any;
    broken.spec.template.spec.containers[0].ports[0].containerPort = "4000";
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
  });

  it("the kustomization lists every file but the demo directory's, and overrides the image and the replicas", () => {
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => f !== "kustomization.yaml" && f !== "directory.yaml").sort());
    const images = new Set(of("Deployment").flatMap((d) => d.spec.template.spec.containers.map((c: { image: string }) => c.image.split(":")[0])));
    images.delete("redis");
    expect([...images]).toEqual(kustomization.images.map((i) => i.name));
    expect(kustomization.replicas.map((r) => r.name).sort()).toEqual([...SERVED].sort());
  });

  it("a Deployment and a Service for each component, the directory's optional; Redis a StatefulSet", () => {
    expect(of("Deployment").map((d) => d.metadata.name).sort()).toEqual(["directory", "gateway", "legacy-time", "organisation", "people"]);
    expect(of("Service").map((d) => d.metadata.name).sort()).toEqual(["directory", "gateway", "legacy-time", "organisation", "people", "redis"]);
    expect(of("StatefulSet").map((d) => d.metadata.name)).toEqual(["redis"]);
    expect(secret.stringData!.REDIS_URL).toBe(`redis://redis:${named("Service", "redis").spec.ports[0].port}`);
    for (const variable of [...Object.keys(config.data!), ...Object.keys(secret.stringData!)]) expect(KNOWN_VARIABLES, variable).toContain(variable);
  });

  it("an autoscaler and a disruption budget for the gateway and each subgraph", () => {
    for (const name of SERVED) {
      const hpa = named("HorizontalPodAutoscaler", name);
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(named("Deployment", name).spec.template.spec.containers[0].resources.requests.cpu).toBeDefined();
      const pdb = named("PodDisruptionBudget", name);
      expect(pdb.spec.selector.matchLabels).toEqual(named("Deployment", name).spec.selector.matchLabels);
      expect(pdb.spec.maxUnavailable).toBe(1);
    }
  });

  it("network policies: everything denied, then the gateway from anywhere, each subgraph from the gateway (people also from the ingress controller), the directory from the subgraphs, Redis from both, metrics from monitoring", () => {
    const policies = of("NetworkPolicy");
    const deny = named("NetworkPolicy", "directory-graph-default-deny");
    expect(deny.spec).toEqual({ podSelector: { matchLabels: { "app.kubernetes.io/part-of": "directory-graph" } }, policyTypes: ["Ingress"] });
    for (const d of [...of("Deployment"), ...of("StatefulSet")]) expect(d.spec.template.metadata.labels["app.kubernetes.io/part-of"]).toBe("directory-graph");
    const portOf = (name: string) => (name === "redis" ? 6379 : PORTS[name]![1]);
    /** who may reach `name` on its own port: undefined for anyone */
    const allowed = (name: string) => {
      const policy = policies.find((p) => p.spec.podSelector.matchLabels["app.kubernetes.io/name"] === name)!;
      const rules = policy.spec.ingress as Array<{ from?: Array<{ podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }>; ports: Array<{ port: number }> }>;
      const own = rules.filter((r) => r.ports.some((p) => p.port === portOf(name)));
      expect(own, name).toHaveLength(1);
      const metrics = rules.filter((r) => r.ports.some((p) => p.port === metricsPort));
      if (SERVED.includes(name)) expect(metrics.map((r) => r.from), name).toEqual([[{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }]]);
      expect(rules.length, name).toBe(own.length + metrics.length);
      return own[0]!.from
        ?.map((f) => (f.podSelector ? f.podSelector.matchLabels["app.kubernetes.io/name"] : `namespace ${(f.namespaceSelector as { matchLabels: Record<string, string> }).matchLabels["kubernetes.io/metadata.name"]}`))
        .sort();
    };
    expect(allowed("gateway")).toBeUndefined();
    // people also from the ingress controller's namespace: the Ingress's route to its webhook
    // (`/directory-events`, DIRECTORY_EVENTS=webhook), the namespace docs/deploying.md names
    const controller = "ingress-nginx";
    expect(allowed("people")).toEqual(["gateway", `namespace ${controller}`]);
    expect(read("docs/deploying.md")).toContain(`\`${controller}\``);
    expect(named("Ingress", "gateway").spec.ingressClassName).toBe(controller.replace(/^ingress-/, ""));
    for (const name of ["organisation", "legacy-time"]) expect(allowed(name)).toEqual(["gateway"]);
    expect(allowed("directory")).toEqual(["legacy-time", "organisation", "people"]);
    expect(allowed("redis")).toEqual(["gateway", "legacy-time", "organisation", "people"]);
  });

  it("the Ingress reaches the gateway's Service on its GraphQL port only", () => {
    const [ingress] = of("Ingress");
    const backend = ingress!.spec.rules[0].http.paths[0].backend.service;
    expect(backend).toEqual({ name: "gateway", port: { name: "http" } });
    expect(named("Service", "gateway").spec.ports).toEqual([{ name: "http", port: 80, targetPort: PORTS.gateway![1] }]);
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
      const service = of("Service").find((s) => s.metadata.name === name)!;
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      // the Service publishes the component's port, never the metrics port
      expect(service.spec.ports.map((p: { targetPort: number }) => p.targetPort)).toEqual([port]);
      if (name === "directory") {
        expect(container.ports).toEqual([{ name: "http", containerPort: port }]);
        expect(container.livenessProbe).toMatchObject({ tcpSocket: { port } });
        return;
      }
      // METRICS_PORT (config.yaml) declared and announced to Prometheus
      expect(container.ports).toEqual([{ name: "http", containerPort: port }, { name: "metrics", containerPort: metricsPort }]);
      expect(deployment.spec.template.metadata.annotations).toEqual({ "prometheus.io/scrape": "true", "prometheus.io/port": String(metricsPort), "prometheus.io/path": "/metrics" });
      expect(container.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
      expect(container.livenessProbe.httpGet).toEqual({ path: "/health", port });
      expect(container.readinessProbe.httpGet).toEqual({ path: "/ready", port });
      // one slow or lost probe does not take a replica out; the gateway's own probe of its
      // subgraphs (2 s, platform/readiness.ts) fits in the probe's timeout
      expect(container.readinessProbe.failureThreshold).toBeGreaterThanOrEqual(2);
      expect(container.readinessProbe.timeoutSeconds * 1000).toBeGreaterThan(2000);
      expect(env.SUBGRAPH_SECRET!.valueFrom!.secretKeyRef.key).toBe("SUBGRAPH_SECRET");
      expect(env.REDIS_URL!.valueFrom!.secretKeyRef.key).toBe("REDIS_URL");
      // secrets from the Secret only, never a value in the manifest
      for (const [key, entry] of Object.entries(env)) if (/SECRET|KEY|REDIS_URL|CLIENT_ID/.test(key)) expect(entry.valueFrom, key).toBeDefined();
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

  it("behind the Ingress: the gateway trusts the controller's pod network and names the Ingress's TLS host as its public URL, as docs/deploying.md says", async () => {
    const container = named("Deployment", "gateway").spec.template.spec.containers[0];
    const env = Object.fromEntries((container.env as Array<{ name: string; value?: string }>).map((e) => [e.name, e.value]));
    const docs = read("docs/deploying.md");
    // the gateway's own reader takes them (a block it could not read stops the start)
    const { loadRateLimits } = await import("../../gateway/rate-limits.js");
    const proxies = loadRateLimits({ GATEWAY_TRUSTED_PROXIES: env.GATEWAY_TRUSTED_PROXIES }, true).trustedProxies;
    expect(proxies.length).toBeGreaterThan(0);
    expect(docs).toContain("`GATEWAY_TRUSTED_PROXIES`");
    for (const proxy of proxies) expect(docs).toContain(`\`${proxy}\``);
    const ingress = named("Ingress", "gateway");
    const host = ingress.spec.rules[0].host as string;
    expect(ingress.spec.tls[0].hosts).toContain(host);
    expect(env.GATEWAY_PUBLIC_URL).toBe(`https://${host}`);
    expect(docs).toContain(`\`GATEWAY_PUBLIC_URL\``);
    expect(docs).toContain(`\`${env.GATEWAY_PUBLIC_URL}\``);
  });

  it("Redis evicts only keys with a TTL, the policy docs/deploying.md gives", () => {
    const documented = /`maxmemory-policy (\S+)`/.exec(read("docs/deploying.md"))![1];
    expect(documented).toBe("volatile-lru");
    const args = named("StatefulSet", "redis").spec.template.spec.containers[0].args as string[];
    expect(args[args.indexOf("--maxmemory-policy") + 1]).toBe(documented);
  });
});

describe("deploy/compose.yaml's settings as documented", () => {
  const compose = parse(read("deploy/compose.yaml"), { merge: true }) as { services: Record<string, { command?: string[]; environment?: Record<string, string> }> };

  it("the people subgraph hears the directory's changes (DIRECTORY_EVENTS not off), for the subscriptions", () => {
    expect(compose.services.people!.environment!.DIRECTORY_EVENTS).toMatch(/^\$\{DIRECTORY_EVENTS:-(poll|webhook)\}$/);
  });

  it("Redis evicts only keys with a TTL, the policy docs/deploying.md gives", () => {
    const documented = /`maxmemory-policy (\S+)`/.exec(read("docs/deploying.md"))![1];
    const command = compose.services.redis!.command!;
    expect(command[command.indexOf("--maxmemory-policy") + 1]).toBe(documented);
  });
});
