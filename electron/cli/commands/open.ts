import { AppError } from '../../../shared/contract/errors.ts';
import { linkQuery } from '../../../shared/links/citation-link.ts';
import { readHostFile } from '../../host/host-file.ts';
import { TOKEN_HEADER } from '../../host/security.ts';
import { requireLink } from '../../services/links/link-resolver.ts';
import { call, EXIT, type Command } from '../command.ts';

/**
 * `evidesk open LINK` (issue 17): checks the link and where it points in the workspace (reads only),
 * then hands it to the running desk (the browser-mode host of the same workspace), whose open pages
 * show the place with the quote marked.
 */
export const openCommand: Command = {
  name: 'open',
  usage: 'open LINK                     open the desk at a citation link (evidesk://open?…) through the running app',
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    const raw = args.positionals[0];
    if (!raw || args.positionals.length > 1) {
      io.err('evidesk open: give one citation link (evidesk://open?…), quoted so the shell keeps the & in it.');
      return EXIT.usage;
    }
    const link = requireLink(raw);
    const target = await call(services, 'links.resolve', { link: raw });
    const host = readHostFile(services.workspaceDir);
    const notRunning = () =>
      new AppError('HOST_NOT_RUNNING', `No Evidence Desk is running on the workspace ${services.workspaceDir}. Start it (npm start; EVIDESK_BROWSER_MODE=1 for browser mode), then run evidesk open again.`, { workspace: services.workspaceDir });
    if (!host) throw notRunning();
    let reply: { ok: boolean; value?: { delivered: number }; error?: { code: string; message: string } };
    try {
      const res = await fetch(`http://127.0.0.1:${host.port}/api/links.announce`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: host.token },
        body: JSON.stringify({ link: raw }),
      });
      reply = (await res.json()) as typeof reply;
    } catch {
      throw notRunning();
    }
    if (!reply.ok || !reply.value) throw new AppError('INTERNAL', `The desk did not take the link: ${reply.error?.message ?? 'no answer'}`);
    const where = target.state === 'found' ? `${target.fileName}, ${target.where}` : 'a document this workspace lacks';
    const page = `http://127.0.0.1:${host.port}/?token=${encodeURIComponent(host.token)}#/open?${linkQuery(link)}`;
    if (json) io.out(JSON.stringify({ delivered: reply.value.delivered, target, url: page }, null, 2));
    else if (reply.value.delivered > 0) io.out(`Opened in the desk: ${target.message}`);
    else io.out(`The desk is running but no page of it is open. Open this address to see ${where}:\n${page}`);
    return EXIT.ok;
  },
};
