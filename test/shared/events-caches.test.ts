import { describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { EtagCache, changedTags, resourceTags } from "../../subgraphs/shared/upstream/etag-cache.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { watchDirectoryRequests } from "../helpers/stack.js";
import { AUTH } from "../directory/legacy-helpers.js";

/**
 * Caches that forget (docs/shared-state.md#caches-that-forget): a change at the directory, heard
 * through the ingestion (poll, every 20 ms), drops the ETag entries of the changed employee, and a
 * read through the gateway after it is fresh. The entries are revalidated anyway, so the read would
 * be fresh without the forgetting too: what fails without it is that the stale entry is kept and
 * sent back as `If-None-Match`.
 */

// DIRECTORY_HELD_FRESH_S=0: these tests watch the conditional requests themselves, which held reads would save (test/upstream/held.test.ts)
const stack = useGatewayStack({ env: { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "20", DIRECTORY_HELD_FRESH_S: "0" } });
const EMPLOYEE = `query($id: ID!) { employee(id: $id) { id givenName familyName } }`;

async function heard(predicate: (c: DirectoryChange) => boolean): Promise<DirectoryChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (stop(), reject(new Error("no change heard"))), 10_000);
    const stop = stack.upstream.changes.listen((change) => {
      if (!predicate(change)) return;
      clearTimeout(timer);
      stop();
      // the cache's own listener was registered first: it has started forgetting; let it finish
      setTimeout(() => resolve(change), 20);
    });
  });
}

/** the employee reads the directory received while `run` ran, and whether each was conditional */
async function employeeReads(run: () => Promise<unknown>): Promise<boolean[]> {
  const watch = watchDirectoryRequests(() => stack.directory.port);
  const urls: boolean[] = [];
  try {
    await run();
  } finally {
    watch.stop();
  }
  watch.headers.forEach((headers, i) => {
    if (watch.urls[i]!.startsWith("/service-api/employees")) urls.push(headers["if-none-match"] !== undefined);
  });
  return urls;
}

describe("caches that forget", () => {
  it("a change made at the directory drops the ETag entry of the employee: the next read is unconditional and fresh", async () => {
    expect((await stack.query(EMPLOYEE, { id: "7" })).data.employee.givenName).not.toBe("Renée");
    // the entry is kept: the same read again revalidates it
    expect(await employeeReads(() => stack.query(EMPLOYEE, { id: "7" }))).toContain(true);

    const change = heard((c) => c.resource.type === "employee" && c.resource.id === "7");
    const res = await fetch(`${stack.directory.url}/api/v3/users/7`, { method: "PUT", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify({ firstName: "Renée" }) });
    expect(res.status).toBe(200);
    await res.text();
    expect((await change).topic).toBe("employee.updated");

    let answer: any;
    const conditional = await employeeReads(async () => (answer = await stack.query(EMPLOYEE, { id: "7" })));
    expect(answer.data.employee.givenName).toBe("Renée");
    // forgotten: nothing to revalidate
    expect(conditional).not.toContain(true);
  });

  it("a legacy write through the gateway's mutation is heard, and the read after it is fresh", async () => {
    const change = heard((c) => c.resource.id === "12" && c.previousAttributes !== null && "familyName" in c.previousAttributes);
    const write = await stack.query(`mutation { updateLegacyUser(id: "12", input: { lastName: "Okonkwo-Fresh" }) { __typename } }`);
    expect(write.data.updateLegacyUser.__typename).toBe("Employee");
    expect(await change).toMatchObject({ topic: "employee.updated", resource: { type: "employee", id: "12" } });
    expect((await stack.query(EMPLOYEE, { id: "12" })).data.employee.familyName).toBe("Okonkwo-Fresh");
  });
});

describe("what a change makes stale", () => {
  it("tags each read by the resources it reads, and a change by what it touches", () => {
    expect(resourceTags("http://d/service-api/employees/7")).toEqual(["employee:all", "employee:7"]);
    expect(resourceTags("http://d/service-api/employees?id=7,8&limit=100")).toEqual(["employee:all", "employee:7", "employee:8"]);
    expect(resourceTags("http://d/service-api/employees?limit=100")).toEqual(["employee:all", "employee:*"]);
    expect(resourceTags("http://d/api/v3/users/7?fields=id,name")).toEqual(["employee:all", "employee:7"]);
    expect(resourceTags("http://d/directory/api/4.0/work-contracts?ownerId=7")).toEqual(["employment:all", "employment:*"]);
    expect(resourceTags("http://d/service-api/legal-entities?limit=100")).toEqual([]);
    expect(changedTags("employee", "7")).toEqual(["employee:7", "employee:*"]);
    expect(changedTags("job-position", "3")).toContain("employee:all");
    expect(changedTags("taxonomy", "3")).toEqual([]);
  });

  it("drops every caller's entry of the changed employee, and keeps the others", async () => {
    const cache = new EtagCache(100);
    const keys = {
      mine: EtagCache.key("service", "GET", "http://d/service-api/employees?id=7,8"),
      theirs: EtagCache.key("forward:abc", "GET", "http://d/api/v3/users/7"),
      other: EtagCache.key("service", "GET", "http://d/service-api/employees/9"),
      list: EtagCache.key("service", "GET", "http://d/service-api/employees?limit=25"),
      reference: EtagCache.key("service", "GET", "http://d/service-api/legal-entities"),
    };
    for (const key of Object.values(keys)) await cache.remember(key, 'W/"x"', "{}");
    expect(await cache.forgetChanged("employee", "7")).toBe(3);
    expect(await cache.get(keys.mine)).toBeUndefined();
    expect(await cache.get(keys.theirs)).toBeUndefined();
    expect(await cache.get(keys.list)).toBeUndefined();
    expect(await cache.get(keys.other)).toBeDefined();
    expect(await cache.get(keys.reference)).toBeDefined();
  });
});
