import { afterEach } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server.js';

/** Start scripted model servers in a test file; every one started is closed after each test. */
export function fakeServers(): (script: Parameters<typeof startFakeLlmServer>[0]) => Promise<FakeLlmServer> {
  let servers: FakeLlmServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  return async (script) => {
    const server = await startFakeLlmServer(script);
    servers.push(server);
    return server;
  };
}
