/**
 * The lexicon remembers each word's facts (as either side of a pair) and each pair's answer: its
 * answers must not depend on what it was asked before. Two fresh lexicons over the real WordNet
 * files are asked the same pairs in opposite orders, each word taking both sides.
 */
import { describe, expect, it } from 'vitest';
import { WordNetFiles } from '../../../electron/services/verification/wordnet-files.ts';
import { WordNetLexicon } from '../../../electron/services/verification/wordnet-lexicon.ts';

const WORDS = ['goal', 'aim', 'animal', 'dog', 'bought', 'acquired', 'relocated', 'moved', 'fallen', 'declined', 'rose', 'consists', 'made up', 'closure', 'closed', 'shutdown', 'shut down', 'beat', 'won', 'joined', 'became', 'submit', 'send', 'weekday', 'weekend', 'first', 'second', 'removal', 'removed', 'employer', 'employee', 'xqzv'];

type Ask = readonly ['covers' | 'opposite' | 'alternatives', string, string];

function asks(): Ask[] {
  const out: Ask[] = [];
  for (const a of WORDS) for (const b of WORDS) if (a !== b) for (const kind of ['covers', 'opposite', 'alternatives'] as const) out.push([kind, a, b]);
  return out;
}

function answer(lexicon: WordNetLexicon, [kind, a, b]: Ask): boolean {
  return kind === 'covers' ? lexicon.covers(a, b) : kind === 'opposite' ? lexicon.opposite(a, b) : lexicon.alternatives(a, b);
}

describe('the WordNet lexicon remembers without changing its answers', () => {
  it('answers every pair alike whichever order the pairs are asked in', () => {
    const list = asks();
    const forward = new WordNetLexicon(new WordNetFiles());
    const backward = new WordNetLexicon(new WordNetFiles());
    const there = new Map(list.map((q) => [q.join('|'), answer(forward, q)]));
    const back = new Map([...list].reverse().map((q) => [q.join('|'), answer(backward, q)]));
    expect(back).toEqual(there);
    // Asked again (from memory), the same.
    expect(new Map(list.map((q) => [q.join('|'), answer(forward, q)]))).toEqual(there);
  });

  it('still finds the relations the rules name, by synonym, broader word, entailment, nominalisation and direction', () => {
    const lexicon = new WordNetLexicon(new WordNetFiles());
    expect(lexicon.covers('goal', 'aim')).toBe(true);
    expect(lexicon.covers('animal', 'dog')).toBe(true);
    expect(lexicon.covers('dog', 'animal')).toBe(false);
    expect(lexicon.covers('won', 'beat')).toBe(true);
    expect(lexicon.covers('closure', 'closed')).toBe(true);
    expect(lexicon.covers('fallen', 'declined')).toBe(true);
    expect(lexicon.covers('xqzv', 'aim')).toBe(false);
    expect(lexicon.opposite('rose', 'fallen')).toBe(true);
    expect(lexicon.alternatives('first', 'second')).toBe(true);
  });
});
