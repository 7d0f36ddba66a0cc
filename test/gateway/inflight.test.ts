import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "../../gateway/gateway.js";
import { startExtraGateway, startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { postGraphQL } from "../helpers/stack.js";

/**
 * Identical subgraph fetches in flight at the gateway are made once, per caller `authorization`,
 * and never for mutations. A counting pass-through proxy on loopback stands between a second
 * gateway and the subgraphs: it counts the subgraph requests that gateway really sends. The
 * queries one operation sends a subgraph at the same time go as one request.
 */

interface Counter {
  url: string;
  count: number;
  close(): Promise<void>;
}

async function countingProxy(target: string): Promise<Counter> {
  const to = new URL(target);
  const counter = { count: 0 } as Counter;
  const server: Server = createServer((req, res) => {
    if (req.method === "POST") counter.count++;
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  counter.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname}`;
  counter.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return counter;
}

const PROFILE = `query Profile($id: ID!) { employee(id: $id) { id givenName manager { id familyName } applicableJobPosition { jobTitle department { name } } } }`;
const UPDATE = `mutation Update($id: ID!, $input: TimeEntryInput!) { updateTimeEntry(id: $id, input: $input) { __typename ... on TimeEntry { id duration } } }`;

describe("identical subgraph fetches in flight at the gateway", () => {
  let stack: GatewayStack;
  let demo: Demo;
  let people: Counter;
  let organisation: Counter;
  let legacy: Counter;
  let gateway: RunningGateway;
  beforeAll(async () => {
    stack = await startGatewayStack();
    demo = pickDemoData(stack.directory.company);
    people = await countingProxy(stack.subgraphs.people!.url);
    organisation = await countingProxy(stack.subgraphs.organisation!.url);
    legacy = await countingProxy(stack.subgraphs["legacy-time"]!.url);
    gateway = await startExtraGateway(stack, { PEOPLE_URL: people.url, ORGANISATION_URL: organisation.url, LEGACY_TIME_URL: legacy.url });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([people, organisation, legacy].map((p) => p?.close()));
    await stack?.close();
  });

  const fetches = () => people.count + organisation.count + legacy.count;
  const reset = () => {
    people.count = organisation.count = legacy.count = 0;
  };
  const profile = (authorization?: string) =>
    postGraphQL(gateway.url, PROFILE, { id: demo.profile.id }, authorization ? { authorization } : {});

  it("eight identical operations at once cost the subgraph fetches of one", async () => {
    const alone = await profile();
    expect(alone.errors).toBeUndefined();
    reset();
    await profile();
    const one = fetches();
    expect(one).toBeGreaterThanOrEqual(2);
    stack.directory.faults.set({ latencyMs: 60 });
    try {
      reset();
      const answers = await Promise.all(Array.from({ length: 8 }, () => profile()));
      expect(answers.every((a) => JSON.stringify(a.data) === JSON.stringify(alone.data))).toBe(true);
      expect(fetches()).toBe(one);
    } finally {
      stack.directory.faults.clear();
    }
  });

  it("callers with different credentials never share a fetch", async () => {
    reset();
    await profile("Bearer a");
    const one = fetches();
    stack.directory.faults.set({ latencyMs: 60 });
    try {
      reset();
      await Promise.all([profile("Bearer a"), profile("Bearer b"), profile("Bearer a"), profile("Bearer b")]);
      expect(fetches()).toBe(2 * one);
    } finally {
      stack.directory.faults.clear();
    }
  });

  it("identical mutations at once are each sent", async () => {
    stack.directory.faults.set({ latencyMs: 60 });
    try {
      reset();
      const input = { id: demo.openEntry.id, input: { duration: "01:15:00" } };
      const answers = await Promise.all([postGraphQL(gateway.url, UPDATE, input), postGraphQL(gateway.url, UPDATE, input)]);
      expect(answers.map((a) => a.data?.updateTimeEntry?.__typename)).toEqual(["TimeEntry", "TimeEntry"]);
      expect(legacy.count).toBe(2);
    } finally {
      stack.directory.faults.clear();
    }
  });

  it("a query asked after a mutation started never joins a query that started before it", async () => {
    stack.directory.faults.set({ latencyMs: 80 });
    try {
      reset();
      await profile();
      const one = people.count;
      reset();
      const input = { id: demo.openEntry.id, input: { duration: "01:45:00" } };
      const before = profile();
      await new Promise((r) => setTimeout(r, 30));
      const write = postGraphQL(gateway.url, UPDATE, input);
      await new Promise((r) => setTimeout(r, 30));
      const after = profile();
      await Promise.all([before, write, after]);
      expect(people.count).toBe(2 * one);
    } finally {
      stack.directory.faults.clear();
    }
  });

  it("the parallel fetches of one operation to one subgraph go as one request, each answered its part", async () => {
    const op = loadOperations().find((o) => o.name === "EmployeeProfile")!;
    const variables = variablesOf(demo, op);
    // the stack's own gateway answers the same operation: the batched answer must equal it
    const reference = await postGraphQL(stack.gateway.url, op.source, variables);
    reset();
    const answer = await postGraphQL(gateway.url, op.source, variables);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual(reference.data);
    const employment = answer.data.employee.applicableEmployment;
    expect(employment.legalEntity.legalName).toBeTruthy();
    expect(employment.template.title).toBeTruthy();
    expect(answer.data.employee.employments.nodes.flatMap((e: any) => e.jobPositions.nodes).some((p: any) => p.department?.name)).toBe(true);
    // legal entity, template, departments, qualifications and categories: five fetches of the plan,
    // one request; people: the root fetch alone (the manager is its own field)
    expect(organisation.count).toBe(1);
    expect(people.count).toBe(1);
  });

  it("a batch of fetches with fragments and aliases is sent whole and split back as the plan asked each", async () => {
    const op = loadOperations().find((o) => o.name === "EmployeeProfile")!;
    const variables = variablesOf(demo, op);
    const fields = `applicableEmployment { legalEntity { LE } template { TE } } employments(first: 10) { nodes { jobPositions(first: 20) { nodes { department { DE } jobQualification { QE } } } } }`;
    const inline = `query Inline($id: ID!) { employee(id: $id) { ${fields.replace("LE", "name: legalName currencyCode").replace("TE", "title").replace("DE", "id name").replace("QE", "rank title")} } }`;
    const fragments = `query Fragments($id: ID!) { employee(id: $id) { ${fields.replace("LE", "...Entity").replace("TE", "... on EmploymentTemplate { title }").replace("DE", "...Dept").replace("QE", "...Qualification")} } }
      fragment Entity on LegalEntity { name: legalName currencyCode }
      fragment Dept on Department { id name }
      fragment Qualification on JobQualification { rank title }`;
    const reference = await postGraphQL(gateway.url, inline, variables);
    expect(reference.errors).toBeUndefined();
    expect(reference.data.employee.applicableEmployment.legalEntity.name).toBeTruthy();
    reset();
    const answer = await postGraphQL(gateway.url, fragments, variables);
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual(reference.data);
    // legal entity, template, departments and qualifications: one request (and the announcement)
    expect(organisation.count).toBeLessThanOrEqual(2);
  });

  it("after a pause longer than the subgraphs' keep-alive timeout, the next operation goes out on a live socket", async () => {
    const first = await profile();
    expect(first.errors).toBeUndefined();
    // node's server closes an idle keep-alive connection after 5 s; the gateway's agent must not reuse it
    await new Promise((r) => setTimeout(r, 5_600));
    const again = await profile();
    expect(again.errors).toBeUndefined();
    expect(again.data).toEqual(first.data);
  }, 20_000);
});

