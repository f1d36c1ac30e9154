/**
 * A per-token call budget: `requests` JSON-RPC calls per `perSeconds`, refilled continuously
 * (a token bucket). A request carrying more calls than are left is refused whole and told
 * how many whole seconds until its calls are allowed (the caller refuses a request larger than the whole budget first).
 */
export interface RateLimit {
  requests: number;
  perSeconds: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Take `calls` calls for `key`: undefined when allowed, else the seconds to wait (at least 1). */
  take(key: string, calls = 1): number | undefined {
    const now = this.now();
    const rate = this.limit.requests / (this.limit.perSeconds * 1000);
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.requests, at: now };
    bucket.tokens = Math.min(this.limit.requests, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= calls) {
      bucket.tokens -= calls;
      return undefined;
    }
    return Math.max(1, Math.ceil((calls - bucket.tokens) / rate / 1000));
  }
}

/** `N` or `N/SECONDS` (default per 60 s), e.g. `120/60`. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^\s*(\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(text);
  if (!match) return undefined;
  const requests = Number(match[1]);
  const perSeconds = match[2] === undefined ? 60 : Number(match[2]);
  return requests >= 1 && perSeconds >= 1 ? { requests, perSeconds } : undefined;
}
