/**
 * The claim checks that read argument order, overclaim, deontic force and list negation, against
 * the real WordNet data: each on sentences of its own (not the development set's), with the case
 * it must catch and the paraphrase it must leave supported.
 */
import { describe, expect, it } from 'vitest';
import { wordNetLexicon } from '../../../electron/services/verification/wordnet-lexicon.ts';
import { judgeClaim } from '../../../shared/verification/index.ts';
import { exchangedAttributes, exchangedParticipants } from '../../../shared/verification/claims/exchange.ts';
import { matchTerms } from '../../../shared/verification/claims/overlap.ts';
import { forces } from '../../../shared/verification/claims/deontic.ts';
import { negationFocus } from '../../../shared/verification/claims/negation.ts';
import { unstatedCause } from '../../../shared/verification/claims/overclaim.ts';
import { readWords } from '../../../shared/verification/claims/words.ts';

const lexicon = wordNetLexicon();
const judge = (claim: string, quote: string, context = ''): ReturnType<typeof judgeClaim> => judgeClaim(claim, quote, context || quote, lexicon);
const codes = (v: ReturnType<typeof judgeClaim>): string[] => v.findings.map((f) => f.code);
const exchange = (claim: string, evidence: string): { participants: unknown; attributes: unknown } => {
  const c = readWords(claim);
  const e = readWords(evidence);
  const m = matchTerms(c, e, [], lexicon);
  return { participants: exchangedParticipants(c, e, m, lexicon), attributes: exchangedAttributes(c, e, m, lexicon) };
};

describe('opposites above a word', () => {
  it('finds opposites one or two senses up from a common sense', () => {
    expect(lexicon.opposite('dropped', 'increased')).toBe(true);
    expect(lexicon.opposite('raised', 'cut')).toBe(true);
    expect(lexicon.opposite('shrank', 'expanded')).toBe(true);
  });
  it('does not make opposites of synonyms or of rare senses', () => {
    expect(lexicon.opposite('increased', 'rose')).toBe(false);
    expect(lexicon.opposite('taken', 'leave')).toBe(false);
    expect(lexicon.opposite('cut', 'reduced')).toBe(false);
  });
  it('contradicts a claim that turns the direction round', () => {
    const v = judge('Ticket sales dropped by 4 percent in the spring.', 'Ticket sales increased by 4 percent in the spring');
    expect(v.verdict).toBe('contradicted');
    expect(codes(v)).toContain('direction');
  });
});

describe('participants exchanged across a relation', () => {
  it('finds two parties on the other sides of the same verb or preposition', () => {
    expect(exchange('Orbis Media bought Kestrel Radio in 2019.', 'Kestrel Radio bought Orbis Media in 2019').participants).not.toBeNull();
    expect(exchange('The clinic replaced its paper records with digital files.', 'The clinic replaced its digital files with paper records').participants).not.toBeNull();
    expect(exchange('The warden handed the keys to the caretaker.', 'The caretaker handed the keys to the warden').participants).not.toBeNull();
    const v = judge('The gallery lent the painting to the library.', 'The library lent the painting to the gallery');
    expect(v.verdict).toBe('contradicted');
    expect(codes(v)).toContain('roles');
  });
  it('leaves a voice change, a symmetric pair and a dative passive alone', () => {
    expect(exchange('Kestrel Radio was bought by Orbis Media.', 'Orbis Media bought Kestrel Radio').participants).toBeNull();
    expect(exchange('Orbis Media and Kestrel Radio merged.', 'Kestrel Radio and Orbis Media merged').participants).toBeNull();
    expect(exchange('Antibiotics must not be given to infants.', 'Infants must not be given antibiotics').participants).toBeNull();
    expect(exchange('Up to ten days of credit may be moved to the next term.', 'Credit may be moved to the next term, up to ten days').participants).toBeNull();
    expect(judge('Kestrel Radio was bought by Orbis Media in 2019.', 'Orbis Media bought Kestrel Radio in 2019').verdict).toBe('supported');
  });
  it('finds two pairs exchanged between clauses', () => {
    const found = exchange('Prices were highest in the north and lowest in the harbour district.', 'Prices were highest in the harbour district and lowest in the north');
    expect(found.attributes ?? found.participants).not.toBeNull();
    expect(exchange('The chair opened the meeting, and the secretary closed it.', 'The secretary opened the meeting, and the chair closed it').attributes).not.toBeNull();
    expect(exchange('Prices were highest in the north.', 'Prices were highest in the north and lowest in the harbour district').attributes).toBeNull();
  });
});

describe('a role given to another party', () => {
  it('contradicts a claim that says of one party of the source what it says of another', () => {
    const v = judge('The buyer pays the survey fees.', 'The seller pays the survey fees, while the buyer pays the stamp duty');
    expect(v.verdict).toBe('contradicted');
    expect(v.reasons.join(' ')).toContain('what the source says of "seller"');
  });
  it('makes weak a party the source never mentions, even one WordNet does not know ("lessor")', () => {
    const v = judge('The lessee keeps the title to the vehicle.', 'The lessor keeps the title to the vehicle');
    expect(v.verdict).toBe('weak');
    expect(codes(v)).toContain('substitution');
  });
  it('does not take "employer" for "employee", nor "shareholders" for "share"', () => {
    expect(judge('The employer pays the pension contribution.', 'The employee pays the pension contribution').verdict).not.toBe('supported');
    const found = exchange('Members proposed a fee of 2.50 euros per share, which the board approved.', 'The board proposed a fee of 2.50 euros per share, which members approved');
    expect(found.participants).not.toBeNull();
  });
  it('contradicts an attribute said of what the source gives its opposite, in the same frame only', () => {
    expect(judge('Queues were shortest at the north gate.', 'Queues were longest at the north gate and shortest at the east gate').verdict).toBe('contradicted');
    expect(judge('The pool reopened after a repair.', 'The pool was closed for repair in May and reopened a month later').verdict).not.toBe('contradicted');
  });
});

describe('overclaim', () => {
  it('makes a claim weak that speaks of a thing the source never mentions', () => {
    const v = judge('The new boilers cut heating costs and repair costs by 20 percent.', 'The new boilers cut heating costs by 20 percent');
    expect(v.verdict).toBe('weak');
    expect(v.reasons.join(' ')).toContain('"repair"');
  });
  it('takes numbers written out or in words of measure for no new thing', () => {
    expect(judge('Volunteers get twelve days of training.', 'Volunteers get 12 days of training').verdict).toBe('supported');
    expect(judge('Sales grew 9 per cent.', 'Sales grew 9%').verdict).toBe('supported');
  });
  it('reads verbs where they stand, not as things', () => {
    expect(judge('Release 7 drops Windows 8.', 'Release 7 removes support for Windows 8').verdict).toBe('supported');
    expect(judge('Ferries run every 30 minutes in summer.', 'Ferries depart every 30 minutes in summer').verdict).toBe('supported');
  });
  it('lets the claim name what a pronoun subject of the source stands for', () => {
    expect(judge('The tunnel replaced a ferry that had crossed since 1900.', 'It replaced a ferry that had crossed since 1900').verdict).toBe('supported');
  });
  it('makes a claim weak that gives a cause the source does not state', () => {
    expect(unstatedCause('Sales fell because of the strike.', 'Sales fell in May')).not.toBeNull();
    expect(unstatedCause('Sales fell because of the strike.', 'Sales fell in May, mainly due to the strike')).toBeNull();
    const v = judge('Bird numbers declined because of new housing.', 'Bird numbers declined sharply over the decade');
    expect(v.verdict).toBe('weak');
    expect(v.reasons.join(' ')).toContain('cause');
  });
});

describe('deontic force', () => {
  it('reads the force however it is worded', () => {
    expect([...forces(readWords('Guests must not smoke.'))]).toEqual(['prohibition']);
    expect([...forces(readWords('Guests are not permitted to smoke.'))]).toEqual(['prohibition']);
    expect([...forces(readWords('Guests have to sign in.'))]).toEqual(['obligation']);
    expect([...forces(readWords('Guests need not sign in.'))]).toEqual(['permission']);
  });
  it('holds a claim that words the same force differently', () => {
    expect(judge('Smoking is prohibited on the platform.', 'Smoking is not allowed on the platform').verdict).toBe('supported');
    expect(judge('Drivers are required to carry a licence at all times.', 'Drivers must carry a licence at all times').verdict).toBe('supported');
  });
  it('still contradicts a claim that permits what the source forbids', () => {
    expect(judge('Smoking is allowed on the platform.', 'Smoking is not allowed on the platform').verdict).toBe('contradicted');
  });
});

describe('what a negation is about', () => {
  it('finds the word denied: the first content word, the verb after a catenative, each list item', () => {
    const focus = (t: string): string[] => [...negationFocus(readWords(t))].map((w) => w.word);
    expect(focus('Members do not pay for parking.')).toEqual(['pay']);
    expect(focus('Users do not need to reinstall the app.')).toEqual(['need', 'reinstall']);
    expect(focus('Guests must not feed, touch or photograph the animals.')).toEqual(['feed', 'touch', 'photograph']);
    // Two negations in a clause state a condition.
    expect(focus('Staff may not leave without signing out.')).toEqual([]);
  });
  it('contradicts only where the denied word is said on both sides, or said otherwise in its place', () => {
    expect(judge('Parking is not free for members.', 'Parking is free for members').verdict).toBe('contradicted');
    expect(judge('Bus fares will rise this year.', 'Bus fares will not increase this year').verdict).toBe('contradicted');
    // "do not pay" against "free": a denial of what the source does not mention is no contradiction.
    expect(judge('Members do not pay for parking.', 'Parking is free for members and for residents').verdict).not.toBe('contradicted');
    expect(judge('Except in an emergency, staff have to sign out before leaving.', 'Staff may not leave without signing out, except in an emergency').verdict).not.toBe('contradicted');
  });
});

describe('the reach of a denial', () => {
  it('makes weak an outright denial of what the source denies under a condition', () => {
    const v = judge('Visitors may never enter the lab.', 'Visitors may not enter the lab without an escort');
    expect(v.verdict).toBe('weak');
    expect(v.reasons.join(' ')).toContain('only under a condition');
  });
  it('makes weak a denial of a broader thing than the source denies, and keeps the same denial', () => {
    const v = judge('Guests must not bring any weapons into the hall.', 'Guests must not bring guns into the hall');
    expect(v.verdict).toBe('weak');
    expect(v.reasons.join(' ')).toContain('in general');
    expect(judge('Guests must not bring guns into the hall.', 'Guests must not bring guns into the hall').verdict).toBe('supported');
  });
});

describe('fixes found on the fresh pairs', () => {
  it('reads a passive whose "by" comes late, and two events in the other order', () => {
    expect(judge('Lena Berg, an architect, designed the library in 1961.', 'The library was designed in 1961 by the architect Lena Berg').verdict).toBe('supported');
    expect(exchange('The school closed its kitchen after pupil numbers fell.', 'Pupil numbers fell after the school closed its kitchen').participants).not.toBeNull();
  });
  it('holds a denial turned twice ("does not open" for "is closed") and contradicts a dropped denial kept under its condition', () => {
    expect(judge('The depot does not open on Sundays.', 'The depot opens at 7 a.m. on weekdays and is closed on Sundays').verdict).toBe('supported');
    expect(judge('Pupils can leave the site without a teacher present.', 'Pupils cannot leave the site without a teacher present').verdict).toBe('contradicted');
  });
  it('does not let a rare adjective sense make "higher" cover "last"', () => {
    expect(lexicon.covers('higher', 'last')).toBe(false);
    expect(judge('Turnout was higher than last year.', 'Turnout was lower than last year').verdict).toBe('contradicted');
  });
  it('takes a party named only as a modifier for no role of its own', () => {
    expect(judge('Parcels can be collected by any neighbour of the tenant.', "Parcels can be collected by a relative who shows the tenant's card").verdict).not.toBe('contradicted');
  });
});

describe('negation over a list', () => {
  it('reaches every item of a list under one negation', () => {
    const ws = readWords('Tenants must not paint, drill or wallpaper the walls.');
    expect(ws.find((w) => w.word === 'drill')?.negated).toBe(true);
    expect(ws.find((w) => w.word === 'wallpaper')?.negated).toBe(true);
    expect(readWords('Staff must not share passwords, and managers may reset them.').find((w) => w.word === 'reset')?.negated).toBe(false);
  });
  it('contradicts a claim that permits an item of a forbidden list, and supports one that forbids it', () => {
    expect(judge('Tenants may drill the walls.', 'Tenants must not paint, drill or wallpaper the walls').verdict).toBe('contradicted');
    expect(judge('Tenants must not drill the walls.', 'Tenants must not paint, drill or wallpaper the walls').verdict).toBe('supported');
  });
});

describe('verbs the quote entails', () => {
  it('takes what the quote\'s verb entails as said, not the other way round', () => {
    expect(lexicon.covers('won', 'beat')).toBe(true);
    expect(lexicon.covers('slept', 'snored')).toBe(true);
    expect(lexicon.covers('snored', 'slept')).toBe(false);
  });
  it('supports a claim that the side which beat its rival won, but not that a winner beat anyone', () => {
    const v = judge('The away side won the cup final 2-0 against Rovers.', 'The away side beat Rovers 2-0 in the cup final');
    expect(v.verdict).toBe('supported');
    expect(lexicon.covers('beat', 'won')).toBe(false);
  });
});

describe('a verb two senses up', () => {
  it('climbs two steps only between the commonest verb senses', () => {
    expect(lexicon.covers('sent', 'submitted')).toBe(true);
    expect(lexicon.covers('submitted', 'sent')).toBe(false);
  });
  it('supports a paraphrase with the broader verb', () => {
    const v = judge('Grant applications must be sent to the research office by the end of March.', 'Applications for grants must be submitted to the research office by the end of March');
    expect(v.verdict).toBe('supported');
  });
});

describe('the verb a quote\'s verb is defined by', () => {
  it('takes the head of the commonest sense\'s definition as said ("join": "become part of")', () => {
    expect(lexicon.covers('became', 'joined')).toBe(true);
    expect(lexicon.covers('joined', 'became')).toBe(false);
  });
  it('supports a paraphrase by the defining verb and still weakens one by an unrelated verb', () => {
    expect(judge('Dr Okafor, who founded the clinic, became a member of the hospital board.', 'The clinic\'s founder, Dr Okafor, joined the hospital board as a member').verdict).toBe('supported');
    expect(judge('Dr Okafor, who founded the clinic, chaired the hospital board.', 'The clinic\'s founder, Dr Okafor, joined the hospital board').verdict).not.toBe('supported');
  });
});

describe('-ing forms used as prepositions', () => {
  it('does not read "including" or "regarding" as an event the quote fails to say', () => {
    const v = judge('Visitors may not bring food into the gallery, including snacks.', 'Visitors may not bring any food into the gallery, not even snacks');
    expect(codes(v)).not.toContain('unsaid_verb');
    expect(codes(judge('Visitors may not bring food into the gallery, photographing snacks.', 'Visitors may not bring any food into the gallery, not even snacks'))).toContain('unsaid_verb');
  });
});
