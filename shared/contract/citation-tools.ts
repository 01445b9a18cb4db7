/**
 * The citation tools as an agent sees them (MCP tool names and descriptions), each bound to its
 * contract entry. Descriptions are written for a model: what to pass, what comes back, and what
 * to do when a call fails.
 */
import type { HandlerName } from './contract.ts';

export interface CitationTool {
  name: string;
  handler: HandlerName;
  /** The call carries the citing context (session, agent, user, project), filled from the door when absent. */
  takesContext: boolean;
  readOnly: boolean;
  description: string;
}

export const CITATION_TOOLS: readonly CitationTool[] = [
  {
    name: 'register_source',
    handler: 'citations.registerSource',
    takesContext: true,
    readOnly: false,
    description: `Add a source you will cite, before citing it. Give exactly one of:
- path: a local file (PDF, DOCX, HTML, text, Markdown); its text is extracted and stored with page/line locators. The same bytes registered twice are one source (outcome "duplicate").
- url: an http(s) page to archive (citations verify against the archived copy).
- custom: {identifier, description, kind: "database"|"dataset"|"other"} for a source with no document (a database query, a dataset). Citations of a custom source are recorded but cannot be quote-checked.
Returns source_id (use it in cite), sha256, file_name, page_count, restricted. A restricted source can be cited and searched, but its text is never shown to you.
Sources already in the workspace need no registration: use search_sources to find them.
On a shared (team) workspace a source is registered under your login: if your role may not add it, the error is DATABASE_ROLE_REFUSED and names the role; ask an admin to add the document, or find one already there with search_sources. A url is not fetched on a shared workspace.`,
  },
  {
    name: 'cite',
    handler: 'citations.cite',
    takesContext: true,
    readOnly: false,
    description: `Record one citation for one claim and verify it at once against the stored text of the source. Call it each time you write a claim that rests on a source, before you rely on the claim.
Pass: claim (the sentence you are making), quote_context (the passage around the quote, in your words or the source's), verbatim_quote (the exact words copied from the source: copy, never retype or paraphrase), source (source_id, SHA-256, file name or title, or a custom source's identifier), locator (e.g. {"page": 12} or {"line": 40, "line_end": 42}; a slide {"slide": 2}; a spreadsheet cell {"sheet": "Revenue", "cell": "C4"}; for a custom source {"free_form": "..."}), extraction_method (direct_quote, paraphrase, inference, aggregation, or negative: the source was checked and does NOT support the claim), confidence (high/medium/low). To correct an earlier citation, cite again with related: [{"citation_id": OLD, "relation": "supersedes"}]; citations are never edited or deleted.
Returns: citation_id and marker (put the marker, e.g. "[3]", after the claim in your answer), status, verdict with reasons, score, matched (where the quote really is: page, page_label, line, offsets), next_step (what to do now), closest_passage, candidate_sources.
status: verified (quote found at the claimed place) · verified_elsewhere (found, but at matched.locator: cite again with that locator, superseding this one) · partial (only roughly matches: copy the exact words from closest_passage and cite again) · not_found (the quote is not in the source: quote closest_passage exactly, change the claim, or drop it) · source_unknown (no source matches: pick one of candidate_sources or register_source first) · no_quote (no verbatim_quote: support judged from claim and quote_context) · unverifiable (custom source).
verdict: supported · weak · contradicted (the source says otherwise, e.g. another number: fix the claim) · not_found. Never present a claim as sourced unless status is verified and verdict is supported.`,
  },
  {
    name: 'search_sources',
    handler: 'citations.searchSources',
    takesContext: false,
    readOnly: true,
    description: `Full-text search over every source in the workspace (or one, with source). Returns up to limit hits (default 10, best first), each with source_id, file_name, a locator (page, page_label, paragraph, line, offsets) and a snippet with the matched words in «…». Restricted sources are searched too, but their snippet is null: you get only where the words are. Use it to find the passage to quote, then get_source with the page to read it exactly before you cite.`,
  },
  {
    name: 'get_source',
    handler: 'citations.getSource',
    takesContext: false,
    readOnly: true,
    description: `Details of one source (by source_id, SHA-256, file name or title, or a custom identifier): kind, file name, title, page count, whether it is restricted, whether a newer version exists. Pass page to receive that page's (or for text files, that segment's) full stored text, to copy an exact quote from; a restricted source's text is never returned.`,
  },
  {
    name: 'get_citation',
    handler: 'citations.get',
    takesContext: false,
    readOnly: true,
    description: `One citation by citation_id, with its session, agent, user and project, the claim and quote as given, its verification status, verdict, reasons and matched location, and which citation supersedes it (superseded_by) if it was corrected.`,
  },
  {
    name: 'list_citations',
    handler: 'citations.list',
    takesContext: false,
    readOnly: true,
    description: `Citations made by agents, oldest first, filtered by any of session_id, project_id, agent_id, user_id, status (e.g. "not_found" to find every failed citation) and source. Superseded citations are left out unless include_superseded is true. Pages of up to limit (default 100): pass next_after_id as after_id for the next page.`,
  },
  {
    name: 'format_citation',
    handler: 'citations.format',
    takesContext: false,
    readOnly: true,
    description: `A citation formatted for your answer's text. style "inline" (the only style for now) gives the marker with the source and place, e.g. "[3] HR_Policy.pdf, p. 12".`,
  },
];

export function citationTool(name: string): CitationTool | undefined {
  return CITATION_TOOLS.find((t) => t.name === name);
}
