import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/**
 * One HTTP GET that connects to the address the address check validated, not to whatever
 * the name resolves to a moment later (DNS rebinding: a name that answers a public address
 * to the check and 127.0.0.1 to the fetch). The URL, the Host header and TLS's server name
 * stay the name's; only the socket's destination is pinned. Answers as fetch's Response.
 */
export interface PinnedGetInit {
  signal: AbortSignal;
  headers: Record<string, string>;
  /** The validated address to connect to; undefined: resolve the name as usual. */
  address?: string;
}

export type GetImpl = (url: URL, init: PinnedGetInit) => Promise<Response>;

export const pinnedGet: GetImpl = (url, init) => {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { headers: init.headers, signal: init.signal, lookup: init.address ? pinnedLookup(init.address) : undefined }, (response) => {
      const status = response.statusCode ?? 502;
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
      }
      // Statuses that carry no body (a Response refuses one for them).
      const bodiless = status === 204 || status === 205 || status === 304;
      if (bodiless) response.resume();
      const body = bodiless ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status: Math.min(Math.max(status, 200), 599), statusText: response.statusMessage ?? '', headers }));
    });
    request.on('error', reject);
  });
};

/** A resolver that answers every name with `address` (both forms of Node's lookup callback). */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
