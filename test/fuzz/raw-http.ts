// A deliberately dumb HTTP/1.1 client over a raw socket, so the fuzz test can send what fetch
// refuses to: broken percent-encoding, NUL bytes, lying Content-Length, slow bodies, half-closed
// connections. Every request says `Connection: close` and is read until the server closes.
import net from 'node:net';

export interface RawReply {
  /** null when the server closed the connection without an answer. */
  status: number | null;
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  /** The request target, sent as it is (not encoded). */
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** Send the body in this many pieces with a pause between them. */
  slowPieces?: number;
  /** Close our sending side after this many bytes of the body (a half-closed connection). */
  halfCloseAfter?: number;
}

export function rawRequest(port: number, req: RawRequest, timeoutMs: number): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${req.method} ${req.target.slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {
      /* a reset after the answer is fine; what we got is judged on close */
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseReply(Buffer.concat(chunks)));
    });
    socket.on('connect', async () => {
      const head = [`${req.method} ${req.target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...req.headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n');
      socket.write(Buffer.from(`${head}\r\n\r\n`, 'latin1'));
      let body = req.body ?? Buffer.alloc(0);
      if (req.halfCloseAfter !== undefined) body = body.subarray(0, req.halfCloseAfter);
      const pieces = Math.max(1, req.slowPieces ?? 1);
      const size = Math.ceil(body.length / pieces);
      for (let i = 0; i < body.length; i += size) {
        if (socket.destroyed) return;
        socket.write(body.subarray(i, i + size));
        if (pieces > 1) await new Promise((r) => setTimeout(r, 20));
      }
      if (req.halfCloseAfter !== undefined && !socket.destroyed) socket.end();
    });
  });
}

function parseReply(bytes: Buffer): RawReply {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return { status: null, headers: {}, body: Buffer.alloc(0) };
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number.isNaN(status) ? null : status, headers, body };
}

function dechunk(bytes: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
