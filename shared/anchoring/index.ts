export * from './normalise.ts';
export * from './match.ts';
export * from './context.ts';
