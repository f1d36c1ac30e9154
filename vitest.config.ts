import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Generous on purpose: a shared, loaded machine may run a CLI test ten times slower than a
    // laptop; a test fails on what it checks, never on how long the machine took.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
