export * from './status.ts';
export * from './verdict.ts';
export * from './summary.ts';
export * from './lexicon.ts';
export { judgeSupport, quoteSentences, SUPPORT_OVERLAP, type SupportInput, type SupportJudgement } from './claims/judge.ts';
export type { Finding, FindingCode } from './claims/checks.ts';
