/**
 * What `wiki serve` says to a caller it refuses before any tool runs. A refusal says what the
 * caller can act on and nothing else: never a path, the wiki's name or id, a file or a page.
 */

/** A 401: the token was `missing` (no bearer token sent) or `not recognised` (unknown, revoked, or another wiki's). */
export function unauthorized(why: 'missing' | 'not recognised'): string {
  const what = why === 'missing' ? 'the bearer token is missing: send it as the header "Authorization: Bearer TOKEN"' : 'the bearer token is not recognised';
  return `unauthorized: ${what}. The server's operator makes tokens with \`wiki serve token add NAME --max-visibility LEVEL\`.`;
}

/** The paths an MCP client probes for OAuth (RFC 9728, RFC 8414, OpenID discovery, dynamic registration). */
export function isOAuthProbe(pathname: string): boolean {
  return pathname.startsWith('/.well-known/oauth-') || pathname.startsWith('/.well-known/openid-configuration') || pathname === '/register' || pathname === '/authorize' || pathname === '/token';
}

export const OAUTH_ANSWER =
  'not found: this server uses bearer tokens, not OAuth. Send "Authorization: Bearer TOKEN" with each request; the server\'s operator makes tokens with `wiki serve token add`.';
