import type pc from 'picocolors';

/** The colour functions of one output stream (plain strings when colour is off). */
export type Colors = ReturnType<typeof pc.createColors>;
