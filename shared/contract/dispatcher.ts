import type { z } from 'zod';
import { contract, isHandlerName, type Contract, type HandlerName, type HandlerOutput } from './contract.ts';
import { fail, ok, type Envelope } from './envelope.ts';
import { toErrorData } from './errors.ts';

export type HandlerImpl<N extends HandlerName> = (
  input: z.output<Contract[N]['input']>,
) => Promise<HandlerOutput<N>> | HandlerOutput<N>;

export type Handlers = { [N in HandlerName]: HandlerImpl<N> };

export type Dispatch = (name: unknown, rawInput: unknown) => Promise<Envelope<unknown>>;

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)
    .join('; ');
}

/**
 * The single entry point of both transports: it never throws, it parses the input before a
 * handler sees it, and it checks what the handler returns against the contract.
 */
export function createDispatcher(handlers: Handlers): Dispatch {
  return async (name, rawInput) => {
    if (!isHandlerName(name)) {
      return fail({ code: 'UNKNOWN_HANDLER', message: `No operation named ${JSON.stringify(name)}.` });
    }
    const spec = contract[name];
    const parsed = spec.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      // details name the fields, so a caller (a model above all) can fix exactly what was wrong.
      const issues = parsed.error.issues.slice(0, 10).map((i) => ({ field: i.path.join('.') || '(input)', message: i.message }));
      return fail({ code: 'INVALID_INPUT', message: `Invalid input for ${name}: ${issuesText(parsed.error)}`, details: { field: issues[0]?.field ?? '(input)', issues } });
    }
    try {
      const impl = handlers[name] as (input: unknown) => unknown;
      const value = await impl(parsed.data);
      const checked = spec.output.safeParse(value);
      if (!checked.success) {
        return fail({ code: 'INVALID_OUTPUT', message: `${name} returned data outside its contract: ${issuesText(checked.error)}` });
      }
      return ok(checked.data);
    } catch (e) {
      return fail(toErrorData(e));
    }
  };
}
