/**
 * A minimal OTLP/HTTP trace receiver on 127.0.0.1:0: keeps every export body (gunzipped when
 * compressed) and answers success in the protocol it was sent (JSON or protobuf: an empty
 * ExportTraceServiceResponse is an empty message).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface OtlpExport {
  path: string;
  contentType: string;
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
      exports.push({ path: req.url ?? '', contentType, body });
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

interface KeyValue { key: string; value: Record<string, unknown> }
interface JsonExport {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: { name: string; attributes?: KeyValue[] }[] }[] }[];
}

/** Resource attributes (key → JSON value) and spans (name, attribute keys) of a JSON export. */
export function decodeJsonExport(body: Buffer): { resources: Record<string, unknown>[]; spans: { name: string; attributes: Record<string, unknown> }[] } {
  const j = JSON.parse(body.toString('utf8')) as JsonExport;
  const flat = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, kv.value]));
  const resources = (j.resourceSpans ?? []).map((r) => flat(r.resource?.attributes));
  const spans = (j.resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []))
    .map((s) => ({ name: s.name, attributes: flat(s.attributes) }));
  return { resources, spans };
}
