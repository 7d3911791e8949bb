/**
 * A raw HTTP client for the intake tests: exact bytes and headers (no Origin or content type
 * added behind our back), a keep-alive agent shared by many concurrent clients.
 */
import { Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

export const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'), headers: opts.headers ?? {}, agent, timeout: opts.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in time`)));
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** Posts an action with the token. */
export function postAction(base: string, token: string, body: unknown, query = ''): Promise<RawResponse> {
  return send(`${base}/v1/actions${query}`, { headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) });
}
