export * from './citation-link.ts';
export * from './file-link.ts';
