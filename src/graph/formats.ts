/** The formats `wiki graph` writes; its own module so the command registers without loading the renderers. */
export const GRAPH_FORMATS = ['html', 'json', 'dot'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];
