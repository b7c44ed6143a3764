import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for an S3-compatible service, answering the calls lib/storage/s3.ts makes
// (PutObject, GetObject with or without a single byte Range, HeadObject, DeleteObject;
// path-style) with the response shapes S3 documents and returns: ETag and request-id headers,
// the object with its Content-Type and Content-Length, 206 with Content-Range for a range,
// the XML InvalidRange error (416) past the end, and the XML NoSuchKey error for a missing key. It checks each request is
// SigV4-signed with the configured access key. No MinIO or real bucket is reachable here.

export type FakeS3Request = { method: string; path: string; headers: IncomingMessage["headers"] };

export type FakeS3 = {
  endpoint: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  requests: FakeS3Request[];
  /** The requests authorised by a presigned URL rather than an Authorization header. */
  presignedRequests: FakeS3Request[];
  close(): Promise<void>;
};

/** Decodes an `aws-chunked` body (`<hex size>;chunk-signature=…\r\n<data>\r\n … 0\r\n<trailers>`). */
function decodeAwsChunked(raw: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(raw.toString("latin1", at, lineEnd).split(";")[0] ?? "", 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

const xmlError = (code: string, message: string, key: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Key>${key}</Key><RequestId>FAKE0001</RequestId><HostId>fake</HostId></Error>`;

export async function startFakeS3(opts: { bucket: string; accessKeyId: string }): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const requests: FakeS3Request[] = [];
  const presignedRequests: FakeS3Request[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push({ method: req.method ?? "", path: url.pathname, headers: req.headers });
    res.setHeader("x-amz-request-id", "FAKE0001");
    // Signed in the Authorization header, or presigned (the signature in the query string: a
    // browser's PUT to a URL from POST /api/uploads), which must sign the type and the length.
    const auth = String(req.headers.authorization ?? "");
    const presigned =
      url.searchParams.get("X-Amz-Algorithm") === "AWS4-HMAC-SHA256" &&
      (url.searchParams.get("X-Amz-Credential") ?? "").startsWith(`${opts.accessKeyId}/`) &&
      Number(url.searchParams.get("X-Amz-Expires")) > 0 &&
      ["content-length", "content-type"].every((h) =>
        (url.searchParams.get("X-Amz-SignedHeaders") ?? "").split(";").includes(h),
      );
    if (presigned)
      presignedRequests.push({
        method: req.method ?? "",
        path: url.pathname,
        headers: req.headers,
      });
    if (!presigned && !auth.startsWith(`AWS4-HMAC-SHA256 Credential=${opts.accessKeyId}/`)) {
      res.writeHead(403, { "Content-Type": "application/xml" });
      res.end(xmlError("AccessDenied", "Access Denied", ""));
      return;
    }
    const prefix = `/${opts.bucket}/`;
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404, { "Content-Type": "application/xml" });
      res.end(xmlError("NoSuchBucket", "The specified bucket does not exist", ""));
      return;
    }
    const key = decodeURIComponent(url.pathname.slice(prefix.length));
    if (req.method === "PUT") {
      const encoding = String(req.headers["content-encoding"] ?? "");
      const body = encoding.includes("aws-chunked") ? decodeAwsChunked(raw) : raw;
      objects.set(key, {
        body,
        contentType: String(req.headers["content-type"] ?? "binary/octet-stream"),
      });
      res.writeHead(200, { ETag: `"${createHash("md5").update(body).digest("hex")}"` });
      res.end();
      return;
    }
    if (req.method === "GET") {
      const obj = objects.get(key);
      if (!obj) {
        res.writeHead(404, { "Content-Type": "application/xml" });
        res.end(xmlError("NoSuchKey", "The specified key does not exist.", key));
        return;
      }
      const size = obj.body.length;
      const common = {
        "Content-Type": obj.contentType,
        ETag: `"${createHash("md5").update(obj.body).digest("hex")}"`,
        "Last-Modified": new Date().toUTCString(),
        "Accept-Ranges": "bytes",
      };
      const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ""));
      if (range) {
        const start = range[1] === "" ? Math.max(0, size - Number(range[2])) : Number(range[1]);
        const end =
          range[1] === "" || range[2] === "" ? size - 1 : Math.min(Number(range[2]), size - 1);
        if (start >= size) {
          res.writeHead(416, { "Content-Type": "application/xml" });
          res.end(xmlError("InvalidRange", "The requested range is not satisfiable", key));
          return;
        }
        res.writeHead(206, {
          ...common,
          "Content-Length": String(end - start + 1),
          "Content-Range": `bytes ${start}-${end}/${size}`,
        });
        res.end(obj.body.subarray(start, end + 1));
        return;
      }
      res.writeHead(200, { ...common, "Content-Length": String(size) });
      res.end(obj.body);
      return;
    }
    if (req.method === "HEAD") {
      const obj = objects.get(key);
      res.writeHead(
        obj ? 200 : 404,
        obj ? { "Content-Type": obj.contentType, "Content-Length": String(obj.body.length) } : {},
      );
      res.end();
      return;
    }
    if (req.method === "DELETE") {
      objects.delete(key);
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(405, { "Content-Type": "application/xml" });
    res.end(xmlError("MethodNotAllowed", "The specified method is not allowed", key));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: opts.bucket,
    objects,
    requests,
    presignedRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
