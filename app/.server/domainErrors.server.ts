// The refusals domain functions (app/.server/*) report: a thing the caller may not see (404) or may
// see but not change (403). They throw these typed errors, never Responses; only route guards
// (`require*`) and the routes themselves turn one into the HTTP answer (docs/architecture.md "One
// request, end to end"). The message is a message ref (app/lib/forms/messages.ts), which the
// layout's error page translates, as it did when the functions threw Responses themselves.

type RefusalStatus = 403 | 404;

const STATUS_TEXT: Record<RefusalStatus, string> = { 403: "Forbidden", 404: "Not Found" };

export class DomainError extends Error {
  constructor(
    readonly status: RefusalStatus,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Unknown, or hidden from this viewer: the answer never says which. */
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super(404, message);
  }
}

/** Visible to the viewer but not theirs to change. */
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super(403, message);
  }
}

/** The Response a route throws for a domain refusal: the message ref as a plain-text body. */
export function refusalResponse(err: DomainError): Response {
  return new Response(err.message, { status: err.status, statusText: STATUS_TEXT[err.status] });
}

/** For routes and guards: awaits domain work and throws a refusal as its Response; other errors pass unchanged. */
export async function orRefusal<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DomainError) throw refusalResponse(err);
    throw err;
  }
}
