import { describe, expect, it } from "vitest";
import { FileLinks } from "../../platform/file-links.js";
import { useGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { pickDemoData } from "../helpers/operations.js";

/**
 * File links through the gateway (docs/security.md#file-links): a portrait's `downloadUrl` names
 * the gateway's `/files/` route; fetched as an `<img src>` would (no credentials) it answers the
 * directory's image, byte for byte, with its content type, for one upstream call. An altered,
 * made-up or expired link is refused with its own 4xx before any upstream call.
 */

const SECRET = "file-link-test-secret-0123456789abcdef";
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function download(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

async function portraitLink(stack: GatewayStack, id: string, headers?: Record<string, string>): Promise<string | null> {
  const res = await stack.query<{ employee: { portrait: { downloadUrl: string | null } | null } | null }>(`query($id: ID!) { employee(id: $id) { portrait { downloadUrl } } }`, { id }, headers);
  expect(res.errors).toBeUndefined();
  return res.data?.employee?.portrait?.downloadUrl ?? null;
}

/** the link with one character of its sealed part changed */
function altered(link: string): string {
  const at = link.indexOf("/files/") + "/files/".length + 20;
  return `${link.slice(0, at)}${link[at] === "A" ? "B" : "A"}${link.slice(at + 1)}`;
}

describe("file links through the gateway (service mode)", () => {
  const stack = useGatewayStack({ env: { FILE_LINK_SECRET: SECRET } });

  it("a portrait's link names the gateway, and serves the directory's image without credentials, in one upstream call", async () => {
    const link = (await portraitLink(stack, "7"))!;
    expect(link.startsWith(`${stack.gateway.url.replace(/\/$/, "")}/files/`)).toBe(true);
    expect(link).not.toContain(new URL(stack.directory.url).host);
    expect(link).not.toMatch(/token=|service-api/);

    stack.resetStats();
    const image = await download(link);
    expect(image.status).toBe(200);
    expect(image.type).toBe("image/png");
    expect([...image.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/files/{id}": 1 });

    const demo = await fetch(`${stack.directory.url}/service-api/employees/7?include=links`, {
      headers: { authorization: `Bearer ${await stack.token()}`, "api-version": "2024-11-01" },
    });
    const href = ((await demo.json()) as { links: { portrait: { href: string } } }).links.portrait.href;
    expect(image.bytes.equals((await download(new URL(href, stack.directory.url).href)).bytes)).toBe(true);
  });

  it("refuses an altered link (403), a made-up one (404) and an expired one (410), with no upstream call", async () => {
    const link = (await portraitLink(stack, "7"))!;
    const base = stack.gateway.url.replace(/\/$/, "");
    // sealed with the service's key, but an hour ago: its five minutes are over
    const expired = new FileLinks(SECRET, 300).mint(base, { kind: "tokened", path: "/service-api/files/1?token=x" }, Date.now() - 3_600_000);
    // sealed with another key: not this service's
    const foreign = new FileLinks("another-secret-0123456789abcdefghij", 300).mint(base, { kind: "tokened", path: "/service-api/files/1?token=x" });
    stack.resetStats();
    for (const [url, status] of [
      [altered(link), 403],
      [foreign, 403],
      [`${base}/files/not-a-link!`, 404],
      [`${base}/files/`, 404],
      [expired, 410],
    ] as const) {
      const res = await fetch(url);
      expect(res.status, url).toBe(status);
      const body = (await res.json()) as { errors: Array<{ message: string }> };
      expect(body.errors[0]!.message).toMatch(/file link/);
    }
    expect(stack.stats().total).toBe(0);
  });

  it("a document's and a legacy picture's links name the gateway too; the demo directory serves neither file, so each is a 404 after its one upstream read", async () => {
    const res = await stack.query<any>(`{ employments(first: 50) { nodes { document { id url downloadUrl } } } employee(id: "7") { legacyUser { picture { id href downloadUrl } } } }`);
    expect(res.errors).toBeUndefined();
    const document = res.data.employments.nodes.map((n: any) => n.document).find((d: any) => d !== null);
    const picture = res.data.employee.legacyUser.picture;
    const base = `${stack.gateway.url.replace(/\/$/, "")}/files/`;
    for (const link of [document.url, document.downloadUrl, picture.href, picture.downloadUrl]) expect(link.startsWith(base), link).toBe(true);
    stack.resetStats();
    for (const link of [document.downloadUrl, picture.downloadUrl]) {
      const answer = await fetch(link);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({ errors: [{ message: "No file for this link." }] });
    }
    // the directory routes no legacy file at all: its statistics name the read "unmatched"
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/files/{id}": 1, "GET (unmatched)": 1 });
  });

  it("a link fetched again is answered from the browser's cache: private, for at most the link's lifetime, then a 304 without the bytes for If-None-Match", async () => {
    const link = (await portraitLink(stack, "7"))!;
    const first = await fetch(link);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(first.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(250);
    expect(maxAge).toBeLessThanOrEqual(300);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"/);
    stack.resetStats();
    const again = await fetch(link, { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/files/{id}": 1 });
  });

  it("a link minted now still opens a few minutes on, and not past its lifetime", async () => {
    const links = new FileLinks(SECRET, 300);
    const link = links.mint("http://gateway.example", { kind: "current", id: "1" });
    const token = link.slice("http://gateway.example/files/".length);
    expect(links.open(token, Date.now() + 299_000)).toMatchObject({ target: { kind: "current", id: "1" } });
    expect(links.open(token, Date.now() + 301_000)).toEqual({ refused: "expired" });
    expect(new FileLinks("another-secret-0123456789abcdefghij", 300).open(token)).toEqual({ refused: "forged" });
  });
});

describe("file links through the gateway (forward mode)", () => {
  const stack = useGatewayStack({ env: { FILE_LINK_SECRET: SECRET, DIRECTORY_AUTH: "forward" } });

  it("a link is minted only for a caller who can read the portrait, and opens without the caller's token", async () => {
    const demo = pickDemoData(stack.directory.company);
    const limited = { authorization: `Bearer ${await stack.token("demo-limited")}` };
    // outside the caller's visibility: no employee, so no link
    expect(await portraitLink(stack, demo.limited.outsideId, limited)).toBeNull();
    const link = (await portraitLink(stack, demo.limited.insideId, limited))!;
    expect(link).toContain("/files/");
    stack.resetStats();
    const image = await download(link);
    expect(image.status).toBe(200);
    expect(image.type).toBe("image/png");
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/files/{id}": 1 });
  });
});

describe("file links and the per-client rate limits", () => {
  const stack = useGatewayStack({ env: { FILE_LINK_SECRET: SECRET }, gatewayEnv: { GATEWAY_RATE_LIMIT: "3", GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32, ::1" } });

  it("each fetch of a link counts as an operation of its client: over the limit, 429 with Retry-After and no upstream call; another client is served", async () => {
    const client = { "x-forwarded-for": "192.0.2.10" };
    const link = (await portraitLink(stack, "7", client))!;
    expect((await download(link, client)).status).toBe(200);
    expect((await download(link, client)).status).toBe(200);
    stack.resetStats();
    const refused = await fetch(link, { headers: client });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as any).errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", limit: "operations", value: 3 });
    expect(stack.stats().total).toBe(0);
    // the links' fetches spent the budget of operations too
    expect((await stack.query(`{ __typename }`, {}, client)).errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    expect((await download(link, { "x-forwarded-for": "192.0.2.11" })).status).toBe(200);
  });
});
