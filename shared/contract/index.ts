export * from './contract.ts';
export * from './dispatcher.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './schemas.ts';
