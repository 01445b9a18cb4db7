export * from './status.ts';
export * from './verdict.ts';
export * from './summary.ts';
