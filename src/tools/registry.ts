import { createAppendToFileTool } from './append-to-file.js';
import type { ToolContext } from './context.js';
import { createListDirectoryTool } from './list-directory.js';
import { createReadFileTool } from './read-file.js';
import { createSearchWikiTool } from './search-wiki.js';
import type { Tool } from '../agent/tool.js';
import { createWriteFileTool } from './write-file.js';

/** The five tools the model gets, in the order of ARCHITECTURE §4. */
export function createTools(ctx: ToolContext): Tool[] {
  return [
    createReadFileTool(ctx),
    createWriteFileTool(ctx),
    createAppendToFileTool(ctx),
    createListDirectoryTool(ctx),
    createSearchWikiTool(ctx),
  ];
}

export const TOOL_NAMES = ['read_file', 'write_file', 'append_to_file', 'list_directory', 'search_wiki'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
