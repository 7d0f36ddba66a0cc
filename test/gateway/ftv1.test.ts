import { Trace } from "@apollo/usage-reporting-protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";

/**
 * Federated traces (ftv1): a gateway or Apollo Router that reports field usage to GraphOS asks
 * each subgraph for an inline trace with `apollo-federation-include-trace: ftv1` and gets it,
 * base64-encoded protobuf, in `extensions.ftv1`. Errors inside a trace are masked.
 */

const stack = useStack({ subgraphs: ["people", "organisation", "legacy-time"] });

afterEach(() => stack.directory.faults.clear());

const TRACE_HEADER = { "apollo-federation-include-trace": "ftv1" };

async function traced(url: string, query: string, headers: Record<string, string> = TRACE_HEADER) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query }) });
  return (await res.json()) as { data?: any; errors?: any[]; extensions?: { ftv1?: string } };
}

/** the response names of every resolved field, as paths (`employee.manager.id`) */
function fieldsOf(node: Trace.INode | null | undefined, prefix = ""): string[] {
  return (node?.child ?? []).flatMap((child) => {
    const name = child.responseName ? `${prefix}${child.responseName}` : prefix.replace(/\.$/, "");
    return [...(child.responseName ? [name] : []), ...fieldsOf(child, child.responseName ? `${name}.` : prefix)];
  });
}

function errorsOf(node: Trace.INode | null | undefined): Trace.IError[] {
  return [...(node?.error ?? []), ...(node?.child ?? []).flatMap(errorsOf)];
}

const CASES = [
  ["people", `{ employee(id: "10") { id givenName manager { id familyName } } }`, ["employee", "employee.givenName", "employee.manager", "employee.manager.familyName"]],
  ["organisation", `{ department(id: "5") { id name parent { id name } } }`, ["department", "department.name", "department.parent", "department.parent.name"]],
  ["legacy-time", `{ timeEntry(id: "100095") { id duration axisSections { id code } } }`, ["timeEntry", "timeEntry.duration", "timeEntry.axisSections"]],
] as const;

describe("inline traces", () => {
  it.each(CASES)("the %s subgraph answers ftv1 with a trace of its resolvers when asked", async (name, query, expected) => {
    const answer = await traced(stack.subgraphs[name]!.url, query);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.extensions?.ftv1).toEqual(expect.any(String));
    const trace = Trace.decode(Buffer.from(answer.extensions!.ftv1!, "base64"));
    expect(Number(trace.durationNs)).toBeGreaterThan(0);
    expect(fieldsOf(trace.root)).toEqual(expect.arrayContaining([...expected]));
  });

  it.each(CASES)("the %s subgraph adds no trace when not asked", async (name, query) => {
    const answer = await traced(stack.subgraphs[name]!.url, query, {});
    expect(answer.data).toBeTruthy();
    expect(answer.extensions?.ftv1).toBeUndefined();
  });

  it("an error's message and extensions are masked in the trace, while the answer keeps its own", async () => {
    stack.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    const answer = await traced(stack.subgraphs.people!.url, `{ employee(id: "10") { id givenName } }`);
    expect(answer.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    const raw = Buffer.from(answer.extensions!.ftv1!, "base64");
    const errors = errorsOf(Trace.decode(raw).root);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error.message).toBe("<masked>");
      const json = JSON.parse(error.json ?? "{}");
      expect(json.message).toBe("<masked>");
      expect(json.extensions).toEqual({ maskedBy: "ApolloServerPluginInlineTrace" });
    }
    // nothing of the upstream (paths, statuses) travels in the trace
    expect(raw.toString("latin1")).not.toMatch(/service-api|UPSTREAM_UNAVAILABLE|503/);
  });
});
