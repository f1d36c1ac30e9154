import { Transform, type TransformCallback } from 'node:stream';
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** A line longer than this is answered as unparsable instead of being buffered further. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Sits between stdin and the MCP transport. The transport drops a line it cannot parse
 * or that is no JSON-RPC message, so a client waiting for its answer would wait forever;
 * here such a line is answered at once (-32700 parse error, -32600 invalid request,
 * echoing the request's id when it has one) and only well-formed messages pass on.
 */
export function jsonRpcGuard(reply: (line: string) => void): Transform {
  let pending = '';
  let overflowing = false;
  const check = (line: string, out: Transform): void => {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      reply(errorLine(null, ErrorCode.ParseError, 'Parse error: the message is not valid JSON'));
      return;
    }
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      reply(errorLine(idOf(message), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response'));
      return;
    }
    out.push(`${line}\n`);
  };
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (overflowing) overflowing = false;
        else check(line.replace(/\r$/, ''), this);
      }
      if (Buffer.byteLength(pending) > MAX_MESSAGE_BYTES) {
        if (!overflowing) reply(errorLine(null, ErrorCode.ParseError, `Parse error: message longer than ${MAX_MESSAGE_BYTES} bytes`));
        overflowing = true;
        pending = '';
      }
      done();
    },
    flush(done: TransformCallback) {
      if (!overflowing) check(pending.replace(/\r$/, ''), this);
      done();
    },
  });
}

function idOf(message: unknown): string | number | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function errorLine(id: string | number | null, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}
