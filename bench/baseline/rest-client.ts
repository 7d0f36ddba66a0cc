/**
 * A plain REST client of the directory service, as a frontend without the facade would use it:
 * `fetch`, a bearer token and `Api-Version` for the current API, the API key for the legacy API,
 * one request at a time. It counts its requests so that the benchmark can set them beside the
 * facade's upstream calls.
 */

export const API_VERSION = "2024-11-01";

export class RestError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
  ) {
    super(`${method} ${path} answered ${status}`);
  }
}

export interface Page<T> {
  items: T[];
  totalCount?: number | null;
  links?: { next: { href: string } | null };
}

export class RestClient {
  calls = 0;

  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly apiKey: string,
  ) {}

  /** `GET /service-api<path>` */
  current<T = any>(path: string, query: Record<string, string | number> = {}): Promise<T> {
    return this.send<T>("GET", `/service-api${path}`, query, { authorization: `Bearer ${this.token}`, "api-version": API_VERSION });
  }

  /** Every item of a current-API list, following `links.next` page by page. */
  async all<T = any>(path: string, query: Record<string, string | number> = {}): Promise<T[]> {
    const items: T[] = [];
    let page = await this.current<Page<T>>(path, { limit: 100, ...query });
    items.push(...page.items);
    while (page.links?.next) {
      const next = new URL(page.links.next.href);
      page = await this.current<Page<T>>(path, Object.fromEntries(next.searchParams));
      items.push(...page.items);
    }
    return items;
  }

  /** `GET <path>` of the legacy API */
  legacy<T = any>(path: string, query: Record<string, string | number> = {}): Promise<T> {
    return this.send<T>("GET", path, query, { authorization: `service application=${this.apiKey}` });
  }

  /** `PUT <path>` of the legacy API with a JSON body */
  legacyPut<T = any>(path: string, body: unknown): Promise<{ status: number; body: T }> {
    return this.request<T>("PUT", path, {}, { authorization: `service application=${this.apiKey}`, "content-type": "application/json" }, body);
  }

  private async send<T>(method: string, path: string, query: Record<string, string | number>, headers: Record<string, string>): Promise<T> {
    const { status, body } = await this.request<T>(method, path, query, headers);
    if (status !== 200) throw new RestError(method, path, status);
    return body;
  }

  private async request<T>(
    method: string,
    path: string,
    query: Record<string, string | number>,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const url = new URL(path, this.baseUrl);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
    this.calls++;
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T };
  }
}

/** A token of the directory's client-credentials flow. */
export async function fetchToken(baseUrl: string, clientId = "demo-client", clientSecret = "demo-secret"): Promise<string> {
  const res = await fetch(new URL("/connect/token", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  if (!res.ok) throw new Error(`token request failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
