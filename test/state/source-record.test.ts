import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { parseSourceRecord, serialiseSourceRecord, type RecordedSource } from '../../src/state/source-record.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

function line(fields: Record<string, unknown>): string {
  return JSON.stringify({ path: 'raw/a.md', sha256: SHA_A, size: 3, ingestedAt: '2026-11-28T10:00:00.000Z', runId: 'run-1', created: ['wiki/sources/a.md'], updated: [], ...fields });
}

function entry(sha256: string, ingestedAt: string, runId: string, created: string[]): RecordedSource {
  return { sha256, size: 3, ingestedAt, runId, pages: { created, updated: [] } };
}

describe('the committed source record', () => {
  it('is one sorted line per source and reads back what was written', () => {
    const text = serialiseSourceRecord({
      'raw/b.md': entry(SHA_B, '2026-11-28T11:00:00.000Z', 'run-2', ['wiki/sources/b.md']),
      'raw/a.md': entry(SHA_A, '2026-11-28T10:00:00.000Z', 'run-1', ['wiki/sources/a.md']),
    });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\{"path":"raw\/a\.md"/);
    expect(parseSourceRecord(text, 'r')).toEqual({
      'raw/a.md': entry(SHA_A, '2026-11-28T10:00:00.000Z', 'run-1', ['wiki/sources/a.md']),
      'raw/b.md': entry(SHA_B, '2026-11-28T11:00:00.000Z', 'run-2', ['wiki/sources/b.md']),
    });
  });

  it('reads a union merge: lines in any order, a source twice keeps the later ingest and the pages of both', () => {
    const text = [
      line({ path: 'raw/b.md' }),
      line({ sha256: SHA_B, ingestedAt: '2026-11-28T12:00:00.000Z', runId: 'run-9', created: ['wiki/sources/a2.md'] }),
      line({}),
      '',
    ].join('\n');
    const read = parseSourceRecord(text, 'r');
    expect(Object.keys(read)).toEqual(['raw/a.md', 'raw/b.md']);
    expect(read['raw/a.md']).toEqual({ ...entry(SHA_B, '2026-11-28T12:00:00.000Z', 'run-9', ['wiki/sources/a.md', 'wiki/sources/a2.md']) });
  });

  it.each([
    ['a path outside raw/', line({ path: 'wiki/index.md' }), /source path under raw\//],
    ['a path escaping the root', line({ path: 'raw/../../etc/passwd' }), /source path under raw\//],
    ['an absolute path', line({ path: '/etc/passwd' }), /source path under raw\//],
    ['raw/ itself', line({ path: 'raw/' }), /source path under raw\//],
    ['a control character', line({ path: 'raw/a\u0007.md' }), /source path under raw\//],
    ['a page outside wiki/', line({ created: ['schema.md'] }), /"created" must list markdown pages under wiki\//],
    ['a page escaping wiki/', line({ updated: ['wiki/../raw/a.md'] }), /"updated" must list markdown pages under wiki\//],
    ['a page in a hidden folder', line({ created: ['wiki/.git/config.md'] }), /"created"/],
    ['a page that is no markdown', line({ created: ['wiki/sources/a.txt'] }), /"created"/],
    ['a wrong sha', line({ sha256: 'xyz' }), /sha256/],
    ['a negative size', line({ size: -1 }), /size/],
    ['a run id with a slash', line({ runId: '../x' }), /run id/],
    ['a time that is not ISO', line({ ingestedAt: 'yesterday' }), /ISO time/],
    ['an unknown field', line({ mtimeMs: 3 }), /unknown field "mtimeMs"/],
    ['a followed version that is no sha256', line({ followed: '../../etc/passwd' }), /"followed" must be a sha256 in hex/],
    ['a followed version that is no string', line({ followed: 7 }), /"followed" must be a sha256 in hex/],
    ['a JSON array', '[1]', /not a JSON object/],
    ['no JSON', 'raw/a.md aaaa', /not a JSON object/],
  ])('refuses %s, naming the line', (_case, bad, message) => {
    const error = (() => {
      try {
        parseSourceRecord(`${line({ path: 'raw/0.md' })}\n${bad}\n`, 'wiki.sources.jsonl');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/^wiki\.sources\.jsonl line 2: /);
    expect((error as ConfigError).message).toMatch(message);
  });

  it('keeps the version the citations follow, and only when it is not the ingested one', () => {
    const followed = { ...entry(SHA_A, '2026-11-28T10:00:00.000Z', 'run-1', ['wiki/sources/a.md']), followed: SHA_B };
    const text = serialiseSourceRecord({ 'raw/a.md': followed });
    expect(text).toContain(`"followed":"${SHA_B}"`);
    expect(parseSourceRecord(text, 'r')['raw/a.md']).toEqual(followed);
    // Citations that follow the ingested version itself are no follow.
    expect(parseSourceRecord(`${line({ followed: SHA_A })}\n`, 'r')['raw/a.md']).not.toHaveProperty('followed');
    expect(serialiseSourceRecord({ 'raw/a.md': entry(SHA_A, '2026-11-28T10:00:00.000Z', 'run-1', []) })).not.toContain('followed');
  });

  it('names a merge conflict left in the record', () => {
    const text = ['<<<<<<< HEAD', line({}), '=======', line({ path: 'raw/b.md' }), '>>>>>>> theirs', ''].join('\n');
    expect(() => parseSourceRecord(text, 'wiki.sources.jsonl')).toThrow(/line 1: an unresolved merge conflict/);
  });
});
