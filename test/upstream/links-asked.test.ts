import { describe, expect, it } from "vitest";
import { watchDirectoryRequests } from "../../harness/stack.js";
import { useUpstreamFixture } from "./fixture.js";

// The directory returns `links` (and so `next`) only to a list read that asks `include=links`
// (docs/interface.md): a read that follows `next` without asking would stop at its first page.
describe("list reads ask for the links they follow", () => {
  const fx = useUpstreamFixture({ employees: 250 });

  it("every page of a whole collection is read with include=links, and all of it arrives", async () => {
    const port = () => Number(new URL(fx.directory.url).port);
    const watch = watchDirectoryRequests(port);
    try {
      const all = await fx.upstream.session().current.all<{ id: number }>("/employees");
      expect(all.length).toBe(fx.directory.company.employees.length);
      const lists = watch.urls.filter((url) => url.startsWith("/service-api/employees"));
      expect(lists.length).toBeGreaterThanOrEqual(3);
      for (const url of lists) expect(new URL(url, "http://x").searchParams.get("include")?.split(",")).toContain("links");
    } finally {
      watch.stop();
    }
  });

  it("a page asked with embedded keeps it and adds links", async () => {
    const port = () => Number(new URL(fx.directory.url).port);
    const watch = watchDirectoryRequests(port);
    try {
      await fx.upstream.session().current.page("/employees", { limit: 5, include: "embedded" });
      const url = watch.urls.find((u) => u.startsWith("/service-api/employees"))!;
      expect(new URL(url, "http://x").searchParams.get("include")?.split(",").sort()).toEqual(["embedded", "links"]);
    } finally {
      watch.stop();
    }
  });
});
