import { call, EXIT, type Command } from '../command.ts';
import { printResult } from './verify.ts';

export const askCommand: Command = {
  name: 'ask',
  usage: 'ask QUESTION… [--model]       answer from the workspace\'s documents (extractive; --model: EVIDESK_MODEL_* endpoint)',
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    const question = args.positionals.join(' ').trim();
    if (!question) {
      io.err('evidesk ask: give the question to answer.');
      return EXIT.usage;
    }
    const detail = await call(services, 'answers.ask', { question, useModel: args.flags.has('model') });
    if (json) io.out(JSON.stringify(detail, null, 2));
    else {
      io.out(detail.answer.answerText);
      io.out('');
      for (const c of detail.citations) {
        const where = c.result?.page ? `p. ${c.result.page}` : c.claimedLocator.line ? `line ${c.claimedLocator.line}` : '';
        io.out(`[${c.marker}] ${c.source?.fileName ?? c.unknownSource ?? '?'}${where ? ` ${where}` : ''}: "${(c.quote ?? '').replace(/\s+/g, ' ')}"`);
      }
      if (detail.verification && detail.citations.length > 0) {
        io.out('');
        printResult(detail.verification, io.out);
      }
      io.out(`Stored as answer ${detail.answer.id}.`);
    }
    return EXIT.ok;
  },
};
