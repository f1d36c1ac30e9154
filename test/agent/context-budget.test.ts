import { describe, expect, it } from 'vitest';
import { messageBudgetChars, replyTokens } from '../../src/agent/context-budget.js';

describe('the context window of a run', () => {
  it('gives the reply at most a quarter of a small window, and maxOutputTokens otherwise', () => {
    expect(replyTokens(8192, 20_000)).toBe(5_000);
    expect(replyTokens(8192, 200_000)).toBe(8192);
    expect(replyTokens(8192, undefined)).toBe(8192);
  });

  it('leaves the messages what the reply, the system prompt and the tool definitions do not take', () => {
    const tools = [{ name: 'read_file' }];
    expect(messageBudgetChars(20_000, 5_000, 's'.repeat(1_000), tools)).toBe(15_000 * 4 - 1_000 - JSON.stringify(tools).length);
    expect(messageBudgetChars(8_000, 2_000, 's'.repeat(100_000), tools)).toBe(0);
  });
});
