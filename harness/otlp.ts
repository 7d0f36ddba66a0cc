import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";

/**
 * An OTLP/HTTP trace receiver for the tests: it accepts `POST /v1/traces` in both encodings the
 * stack can send (`application/x-protobuf` and `application/json`) and keeps every span, decoded
 * with the OTLP protobuf definitions OpenTelemetry itself ships (@opentelemetry/otlp-transformer).
 */

const root = createRequire(import.meta.url)("@opentelemetry/otlp-transformer/build/src/generated/root.js") as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: { decode(bytes: Uint8Array): unknown; toObject(message: unknown, options: object): unknown } } } } } };
};
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** OTLP's SpanKind: 2 server, 3 client */
export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

export interface ReceivedSpan {
  service: string;
  /** the resource's attributes (service.name, service.version, telemetry.sdk.*...) */
  resource: Record<string, unknown>;
  traceId: string;
  spanId: string;
  /** "" for a root span */
  parentSpanId: string;
  name: string;
  kind: number;
  durationMs: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error */
  status: number;
}

/** OTLP's StatusCode */
export const SPAN_STATUS = { unset: 0, ok: 1, error: 2 } as const;

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>/v1/traces` */
  url: string;
  spans: ReceivedSpan[];
  /** the content types of the requests received */
  contentTypes: string[];
  close(): Promise<void>;
}

interface OtlpKeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  events?: Array<{ name: string; attributes?: OtlpKeyValue[] }>;
  status?: { code?: number | string };
}
interface OtlpRequest {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      const type = req.headers["content-type"] ?? "";
      contentTypes.push(type);
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const request = (
        type.includes("protobuf")
          ? ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), { longs: String, bytes: String, enums: Number, defaults: false })
          : JSON.parse(body.toString("utf8"))
      ) as OtlpRequest;
      spans.push(...flatten(request, type.includes("protobuf")));
      res.writeHead(200, { "content-type": type.includes("protobuf") ? "application/x-protobuf" : "application/json" });
      res.end(type.includes("protobuf") ? "" : "{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** ids are base64 in the protobuf's object form, hex in OTLP/JSON */
function id(value: string | undefined, base64: boolean): string {
  if (!value) return "";
  return base64 ? Buffer.from(value, "base64").toString("hex") : value;
}

function attributes(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    const v = value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue ?? value.arrayValue ?? value.kvlistValue;
    out[key] = typeof v === "string" && value.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

function flatten(request: OtlpRequest, base64: boolean): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    const service = String(resource["service.name"] ?? "");
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          service,
          resource,
          traceId: id(s.traceId, base64),
          spanId: id(s.spanId, base64),
          parentSpanId: id(s.parentSpanId, base64),
          name: s.name,
          kind: Number(s.kind),
          durationMs: Number(BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1e6,
          attributes: attributes(s.attributes),
          events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributes(e.attributes) })),
          status: Number(s.status?.code ?? 0),
        });
      }
    }
  }
  return out;
}

/** The spans of one trace as an indented tree: `name (kind, component) 12.3 ms`, children below their parent. */
export function spanTree(spans: ReceivedSpan[]): string {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  for (const s of spans) {
    const parent = ids.has(s.parentSpanId) ? s.parentSpanId : "";
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const kinds: Record<number, string> = { 1: "internal", 2: "server", 3: "client" };
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    for (const s of children.get(parent) ?? []) {
      const component = s.attributes["directory_graph.component"] ?? s.attributes["directory_graph.subgraph"];
      const status = s.attributes["http.response.status_code"];
      const error = s.status === SPAN_STATUS.error ? ", error" : "";
      lines.push(`${"  ".repeat(depth)}${s.name} [${kinds[s.kind] ?? s.kind}${component ? `, ${component}` : ""}${status !== undefined ? `, ${status}` : ""}${error}] ${s.durationMs.toFixed(1)} ms`);
      walk(s.spanId, depth + 1);
    }
  };
  walk("", 0);
  return lines.join("\n");
}
