import type { Tool, ToolOutcome } from '../../src/agent/tool.js';

/** Start and end of every tool run, in the order they happened, for timing assertions. */
export interface ToolTimeline {
  entries: Array<{ tool: string; label: string; phase: 'start' | 'end'; at: number }>;
}

export function newTimeline(): ToolTimeline {
  return { entries: [] };
}

export interface FakeToolOptions {
  mutates?: boolean;
  /** Per-call delay; a function of the arguments lets one test vary it per call. */
  delayMs?: number | ((args: Record<string, unknown>) => number);
  run?: (args: Record<string, unknown>, signal?: AbortSignal) => ToolOutcome | Promise<ToolOutcome>;
  timeline?: ToolTimeline;
  /** Required string parameter names the tool checks itself, like the real tools do. */
  required?: string[];
}

/** A tool with a JSON Schema, its own argument check, an optional delay and a timeline. */
export function fakeTool(name: string, options: FakeToolOptions = {}): Tool {
  const required = options.required ?? ['path'];
  return {
    definition: {
      name,
      description: `fake ${name}`,
      parameters: {
        type: 'object',
        properties: Object.fromEntries(required.map((param) => [param, { type: 'string' }])),
        required,
      },
    },
    mutates: options.mutates ?? false,
    async run(args, signal) {
      const missing = required.filter((param) => typeof args[param] !== 'string');
      if (missing.length > 0) {
        return { content: `${name}: missing string parameter(s) ${missing.join(', ')}; send e.g. {"${missing[0]}": "wiki/page.md"}`, isError: true };
      }
      const label = String(args['label'] ?? args[required[0] ?? 'path'] ?? '');
      options.timeline?.entries.push({ tool: name, label, phase: 'start', at: performance.now() });
      const wait = typeof options.delayMs === 'function' ? options.delayMs(args) : (options.delayMs ?? 0);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        return options.run === undefined ? { content: `${name} ok: ${label}`, isError: false } : await options.run(args, signal);
      } finally {
        options.timeline?.entries.push({ tool: name, label, phase: 'end', at: performance.now() });
      }
    },
  };
}

export function indexOfEntry(timeline: ToolTimeline, label: string, phase: 'start' | 'end'): number {
  const index = timeline.entries.findIndex((entry) => entry.label === label && entry.phase === phase);
  if (index < 0) throw new Error(`no ${phase} entry for ${label}`);
  return index;
}
