import type { EffectiveConfig } from '../../config/load.js';
import type { Schema } from '../../wiki/contract.js';

/** An opened workspace: its root, its schema.md contract and its effective configuration. */
export interface WorkspaceHandle {
  root: string;
  schema: Schema;
  config: EffectiveConfig;
}
