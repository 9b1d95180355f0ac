/**
 * A minimal OTLP/HTTP trace receiver on 127.0.0.1:0: keeps every export body (gunzipped when
 * compressed) and answers success in the protocol it was sent (JSON or protobuf: an empty
 * ExportTraceServiceResponse is an empty message).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface OtlpExport {
  path: string;
  contentType: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  endpoint: string;
  exports: OtlpExport[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: OtlpExport[] = [];
  const srv: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      let body = Buffer.concat(parts);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const contentType = String(req.headers['content-type'] ?? '');
      exports.push({ path: req.url ?? '', contentType, headers: req.headers, body });
      if (contentType.includes('json')) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    exports,
    close: () => {
      srv.closeAllConnections();
      return new Promise((r) => srv.close(() => r()));
    },
  };
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface JsonExport {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: { name: string; attributes?: KeyValue[] }[] }[] }[];
}

/** Resource attributes (key → JSON value) and spans (name, attribute keys) of a JSON export. */
export function decodeJsonExport(body: Buffer): { resources: Record<string, unknown>[]; spans: { name: string; attributes: Record<string, unknown> }[] } {
  const j = JSON.parse(body.toString('utf8')) as JsonExport;
  const flat = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, kv.value]));
  const resources = (j.resourceSpans ?? []).map((r) => flat(r.resource?.attributes));
  const spans = (j.resourceSpans ?? [])
    .flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []))
    .map((s) => ({ name: s.name, attributes: flat(s.attributes) }));
  return { resources, spans };
}

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}

/** A span of a JSON export, its attribute values unwrapped (string, int as number, bool, double). */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  serviceName: string | undefined;
}

const unwrap = (v: Record<string, unknown>): string | number | boolean =>
  (v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue) as string | number | boolean;

/** Every span of every JSON export, with its times in epoch ms and its resource's service.name. */
export function decodeJsonSpans(exports: OtlpExport[]): DecodedSpan[] {
  return exports
    .filter((e) => e.contentType.includes('json'))
    .flatMap((e) => {
      const j = JSON.parse(e.body.toString('utf8')) as { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: JsonSpan[] }[] }[] };
      return (j.resourceSpans ?? []).flatMap((r) => {
        const service = r.resource?.attributes?.find((kv) => kv.key === 'service.name')?.value.stringValue as string | undefined;
        return (r.scopeSpans ?? [])
          .flatMap((sc) => sc.spans ?? [])
          .map(
            (s): DecodedSpan => ({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind ?? 0,
              startMs: Number(BigInt(s.startTimeUnixNano) / 1000n) / 1000,
              endMs: Number(BigInt(s.endTimeUnixNano) / 1000n) / 1000,
              attributes: Object.fromEntries((s.attributes ?? []).map((kv) => [kv.key, unwrap(kv.value)])),
              statusCode: s.status?.code ?? 0,
              serviceName: service,
            }),
          );
      });
    });
}
