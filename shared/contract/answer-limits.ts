/** Largest answer file accepted, in characters (the CLI refuses larger files before reading them). */
export const MAX_ANSWER_CHARS = 20_000_000;
