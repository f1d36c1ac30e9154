import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/agent/types.js';
import { createJobBoard } from '../../src/progress/job-board.js';
import { fakeOutput } from './fake-stream.js';

/** Progress for jobs side by side: a block of live lines on a terminal, tagged lines elsewhere. */
const call = (path: string): ToolCall => ({ id: path, name: 'write_file', arguments: { path }, rawArguments: '{}' });

/** The block as last drawn: the text after the last "erase to the end of the screen". */
function lastBlock(text: string): string[] {
  const block = text.slice(text.lastIndexOf('\x1b[J') + 3);
  return block === '' ? [] : block.split('\n');
}

describe('createJobBoard', () => {
  it('on a terminal, one live line per running job, redrawn together; a finished job leaves the block', () => {
    const { out, stderr } = fakeOutput({ tty: true });
    const board = createJobBoard(out, { maxTurns: 40, columns: 120, intervalMs: 60_000 });
    const alpha = board.reporterFor('raw/alpha.md');
    const beta = board.reporterFor('raw/beta.md');
    alpha.listener({ type: 'turn_start', turn: 2, maxTurns: 40 });
    beta.listener({ type: 'tool_call', turn: 1, call: call('wiki/sources/beta.md') });
    let block = lastBlock(stderr.text);
    expect(block).toHaveLength(2);
    expect(block[0]).toContain('raw/alpha.md · turn 2/40 · waiting for the model');
    expect(block[1]).toContain('raw/beta.md · write_file wiki/sources/beta.md');
    // Back to the block's first line before redrawing it.
    expect(stderr.text).toContain('\x1b[1A\r\x1b[J');

    alpha.finish();
    block = lastBlock(stderr.text);
    expect(block).toHaveLength(1);
    expect(block[0]).toContain('raw/beta.md');
    board.finish();
    expect(lastBlock(stderr.text)).toEqual([]);
  });

  it('a line is made safe on its own: escape sequences in a path are dropped, not obeyed', () => {
    const { out, stderr } = fakeOutput({ tty: true });
    const board = createJobBoard(out, { maxTurns: 40, columns: 120, intervalMs: 60_000 });
    board.reporterFor('raw/a.md').listener({ type: 'tool_call', turn: 1, call: call('wiki/x\x1b[2J\x1b[5Ay.md') });
    board.finish();
    expect(stderr.text).not.toContain('\x1b[2J');
    expect(stderr.text).not.toContain('\x1b[5A');
  });

  it('off a terminal, plain lines tagged with each job’s source', () => {
    const { out, stderr } = fakeOutput({ tty: false });
    const board = createJobBoard(out, { maxTurns: 40 });
    board.reporterFor('raw/alpha.md').listener({ type: 'tool_call', turn: 1, call: call('wiki/sources/alpha.md') });
    board.reporterFor('raw/beta.md').listener({ type: 'tool_call', turn: 3, call: call('wiki/sources/beta.md') });
    board.finish();
    expect(stderr.text).toBe('[raw/alpha.md] turn 1/40: write_file wiki/sources/alpha.md\n[raw/beta.md] turn 3/40: write_file wiki/sources/beta.md\n');
  });
});
