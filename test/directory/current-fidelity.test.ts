import { beforeAll, describe, expect, it } from "vitest";
import { API_VERSION, directoryToken, get, postToken } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

/**
 * What the in-process service does as the production service does: the `Api-Version` header on
 * every answer, `include` as repeated keys, the documented enums in the demo company, the
 * job-qualifications scope, and the reads only referenced by address elsewhere: portraits (and
 * their images), professions.
 */

const directory = useDirectory({ employees: 80, today: "2026-06-15" });
let url: string;
let token: string;

beforeAll(async () => {
  url = directory.url;
  token = await directoryToken(url);
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(`${url}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe("headers and parameters", () => {
  it.each([
    ["a list", "/service-api/employees?limit=1", 200],
    ["a single read", "/service-api/legal-entities/1", 200],
    ["a 404", "/service-api/legal-entities/999", 404],
    ["a 400", "/service-api/employees?limit=1000", 400],
  ])("sends Api-Version on %s", async (_what, path, status) => {
    const res = await get(url, token, path);
    expect(res.status).toBe(status);
    expect(res.headers.get("api-version")).toBe(API_VERSION);
  });

  it("sends Api-Version on a 401 and a 304", async () => {
    expect((await get(url, null, "/service-api/employees")).headers.get("api-version")).toBe(API_VERSION);
    const first = await get(url, token, "/service-api/legal-entities/1");
    const again = await get(url, token, "/service-api/legal-entities/1", { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
    expect(again.headers.get("api-version")).toBe(API_VERSION);
  });

  it("takes include as repeated keys as well as comma-separated, on lists and single reads", async () => {
    const repeated = await get(url, token, "/service-api/employees?limit=2&include=links&include=totalCount");
    const comma = await get(url, token, "/service-api/employees?limit=2&include=links,totalCount");
    expect(repeated.status).toBe(200);
    expect(repeated.body.items).toEqual(comma.body.items);
    expect(repeated.body.totalCount).toBe(80);
    expect(repeated.body.items[0].links).toBeDefined();
    const single = await get(url, token, "/service-api/employees/1?include=links&include=embedded");
    expect(single.body.links).toBeDefined();
    expect(single.body.embedded).toBeDefined();
  });

  it("still refuses a bad value among repeated include keys, and other repeated parameters", async () => {
    const bad = await get(url, token, "/service-api/employees?include=links&include=everything");
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("include");
    const twice = await get(url, token, "/service-api/employees?limit=1&limit=2");
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toHaveProperty("limit");
  });
});

describe("the demo company uses documented values only", () => {
  it("has template audiences, tax and industry formats of the documented sets", () => {
    const company = directory.company;
    const audiences = ["employee", "student", "external", "elected", "appointee", "associate", "volunteer", "other"];
    for (const t of company.employmentTemplates) expect(audiences).toContain(t.audience);
    expect(new Set(company.employmentTemplates.map((t) => t.audience))).toEqual(new Set(["employee", "student", "external"]));
    for (const e of company.legalEntities) {
      expect(["other", "franceSIREN", "spainNIF", "germanySN"]).toContain(e.taxIdentificationNumber.format);
      expect(["other", "franceAPE", "spainCNAE", "germanyWZ", "usaNAICS"]).toContain(e.industryCode.format);
    }
    for (const b of company.businessEstablishments) {
      expect(["other", "franceSIRET", "spainNIF"]).toContain(b.taxIdentificationNumber.format);
      expect(["other", "franceAPE", "spainCNAE", "germanyWZ", "usaNAICS"]).toContain(b.industryCode.format);
    }
    for (const t of company.taxonomies) expect(["id", "name"]).toContain(t.sortLabelsBy);
  });
});

describe("scopes of the production service", () => {
  it("grants job-qualifications and events scopes at the token endpoint", async () => {
    const res = await postToken(url, {
      grant_type: "client_credentials",
      client_id: "demo-client",
      client_secret: "demo-secret",
      scope: "job-qualifications.readonly job-qualifications.readwrite events.readonly webhook-endpoints.readonly webhook-deliveries.readonly",
    });
    expect(res.status).toBe(200);
    expect(res.body.scope.split(" ").sort()).toEqual(
      ["events.readonly", "job-qualifications.readonly", "job-qualifications.readwrite", "webhook-deliveries.readonly", "webhook-endpoints.readonly"],
    );
  });

  it("refuses events.readwrite, which does not exist", async () => {
    const res = await postToken(url, { grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret", scope: "events.readwrite" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_scope");
  });

  it("answers 403 on job qualifications to the limited client, whose scopes do not include them", async () => {
    const limited = await directoryToken(url, "demo-limited");
    expect((await get(url, limited, "/service-api/job-qualifications")).status).toBe(403);
  });
});

describe("professions", () => {
  it("serves the profession of every job qualification", async () => {
    const company = directory.company;
    for (const q of company.jobQualifications) {
      const res = await get(url, token, `/service-api/professions/${q.professionId}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: q.professionId, type: "profession", isArchived: false });
    }
    const list = await get(url, token, "/service-api/professions?include=totalCount");
    expect(list.body.totalCount).toBe(company.professions.length);
    expect(new Set(company.jobQualifications.map((q) => q.professionId))).toEqual(new Set(company.professions.map((p) => p.id)));
  });

  it("answers 400 for a bad isArchived and 404 for an unknown profession", async () => {
    expect((await get(url, token, "/service-api/professions?isArchived=maybe")).status).toBe(400);
    expect((await get(url, token, "/service-api/professions/999")).status).toBe(404);
  });
});

describe("portraits", () => {
  it("serves each employee's portrait, JSON by default and the image on Accept: image/*", async () => {
    const employee = (await get(url, token, "/service-api/employees/3")).body;
    const portrait = await get(url, token, employee.portrait.url);
    expect(portrait.body).toMatchObject({ id: employee.portrait.id, type: "portrait", employee: { id: "3" }, contentType: "image/png" });
    const image = await raw(`/service-api/portraits/${employee.portrait.id}`, {
      authorization: `Bearer ${token}`,
      "api-version": API_VERSION,
      accept: "image/*",
    });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.body.subarray(0, 8).equals(PNG)).toBe(true);
    // JSON wins when both are acceptable
    const both = await get(url, token, `/service-api/portraits/${employee.portrait.id}`, { accept: "image/*, application/json" });
    expect(both.body.type).toBe("portrait");
  });

  it("serves the image at the employee's links.portrait address to anyone holding its token", async () => {
    const employee = (await get(url, token, "/service-api/employees/3?include=links")).body;
    const file = await raw(new URL(employee.links.portrait.href).pathname + new URL(employee.links.portrait.href).search);
    expect(file.status).toBe(200);
    expect(file.body.subarray(0, 8).equals(PNG)).toBe(true);
    const other = (await get(url, token, "/service-api/employees/4?include=links")).body;
    const otherToken = new URL(other.links.portrait.href).searchParams.get("token")!;
    // a token opens its own file only
    for (const path of [`/service-api/files/3?token=${otherToken}`, "/service-api/files/3", "/service-api/files/3?token=", `/service-api/files/999999?token=${otherToken}`]) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toContain("problem+json");
    }
  });

  it("hides the portraits of employees the caller cannot see", async () => {
    const limited = await directoryToken(url, "demo-limited");
    const visible = await get(url, limited, "/service-api/employees?limit=100");
    const seen = new Set(visible.body.items.map((e: { id: string }) => e.id));
    const portraits = await get(url, limited, "/service-api/portraits?limit=100");
    expect(portraits.status).toBe(200);
    expect(portraits.body.items.map((p: { employee: { id: string } }) => p.employee.id)).toEqual([...seen]);
    const hidden = directory.company.employees.find((e) => !seen.has(e.id))!;
    expect((await get(url, limited, `/service-api/portraits/${hidden.portraitId}`)).status).toBe(404);
  });
});
