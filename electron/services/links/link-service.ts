/** The links handlers (issue 17): resolve, announce to the open window, copy a citation, find a file by hash. */
import { AppError } from '../../../shared/contract/errors.ts';
import type { CitationStyle, CopiedCitation, HashSearchResult, LinkResolution } from '../../../shared/contract/link-schemas.ts';
import { formatCitationLink } from '../../../shared/links/citation-link.ts';
import type { EventBus } from '../events.ts';
import type { HealthService } from '../health/health-service.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import type { AnswersService } from '../verification/answers-service.ts';
import { citationLinkOf, copyCitation } from './citation-copy.ts';
import { requireLink, resolveLink } from './link-resolver.ts';

interface LinkDeps {
  sources: SourcesStore;
  anchoring: AnchoringStore;
  answers: AnswersService;
  health: HealthService;
  events: EventBus;
}

export class LinkService {
  private readonly deps: LinkDeps;
  constructor(deps: LinkDeps) {
    this.deps = deps;
  }

  resolve(link: string): LinkResolution {
    const { sources, anchoring, answers } = this.deps;
    return resolveLink(link, {
      sources,
      anchoring,
      citationOf: (answerId, marker) => {
        try {
          const cs = answers.get(answerId).citations;
          return (marker !== undefined ? cs.find((c) => c.marker === marker) : cs[0])?.id ?? null;
        } catch {
          return null;
        }
      },
    });
  }

  /** Validated here first, so a window never receives a link the parser refuses. */
  announce(raw: string): { delivered: number } {
    const link = formatCitationLink(requireLink(raw));
    const delivered = this.deps.events.subscribers;
    this.deps.events.emit({ type: 'link.open', link });
    return { delivered };
  }

  async citation(answerId: number, citationId: number, style: CitationStyle): Promise<CopiedCitation> {
    const { answers, sources } = this.deps;
    const c = answers.get(answerId).citations.find((x) => x.id === citationId);
    if (!c) throw new AppError('CITATION_NOT_FOUND', `Answer ${answerId} has no citation ${citationId}.`);
    const matchedId = c.result?.sourceId ?? c.source?.id ?? null;
    const matched = matchedId !== null ? sources.get(matchedId) : undefined;
    return copyCitation(c, style, matched, citationLinkOf(c, answerId, matched));
  }

  async findByHash(sha256: string, dir: string): Promise<HashSearchResult> {
    const r = await this.deps.health.findByHash(sha256, dir);
    const more = r.truncated ? ' The search stopped at its file limit; choose a smaller folder to look further.' : '';
    return {
      found: r.found,
      examined: r.examined,
      message: r.found
        ? `Found it: ${r.found} has this SHA-256.`
        : `None of the ${r.examined.toLocaleString('en')} files in that folder has this SHA-256.${more}`,
    };
  }
}
