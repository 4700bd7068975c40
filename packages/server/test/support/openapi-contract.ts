/**
 * Checks answers against the OpenAPI document, as an outside contract tester does: the status must be
 * declared for the operation, the body's media type declared for that status, and an error envelope's
 * code listed in the status's `x-cms-error-codes`. A URL no operation matches (a router 404) is not
 * checked.
 */
type Schema = Record<string, any>;

interface CompiledOperation {
  method: string;
  pattern: RegExp;
  /** Literal segments: the most literal template wins (`/content/overview` over `/content/{documentId}`). */
  literals: number;
  op: Schema;
}

/** What an answer looked like: enough to compare with the document. */
export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

export interface OpenApiContract {
  /** Why this answer is not what the document declares, or null when it is. */
  problemOf(method: string, url: string, answer: Answer): string | null;
}

export function openApiContract(doc: Schema): OpenApiContract {
  const operations: CompiledOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    const segments = path.split('/');
    const pattern = new RegExp(
      `^${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`,
    );
    const literals = segments.filter((s) => !s.startsWith('{')).length;
    for (const [method, op] of Object.entries(methods)) {
      operations.push({ method: method.toUpperCase(), pattern, literals, op });
    }
  }
  return {
    problemOf(method, url, answer) {
      const path = new URL(url, 'http://x').pathname;
      const matches = operations.filter((o) => o.method === method.toUpperCase() && o.pattern.test(path));
      const operation = matches.sort((a, b) => b.literals - a.literals)[0];
      if (!operation) return null;
      const where = `${operation.op.operationId} ${method} ${path.slice(0, 120)} -> ${answer.status}`;
      const response = operation.op.responses?.[String(answer.status)] as Schema | undefined;
      if (!response)
        return `${where}: status not declared (declared: ${Object.keys(operation.op.responses).join(', ')})`;
      const mediaType = answer.contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
      // A body, or a media type where one is declared (a stream the client left is read as empty).
      if (answer.text.length > 0 || (mediaType && response.content)) {
        const declared = Object.keys((response.content ?? {}) as Schema);
        if (!declared.some((type) => mediaTypeMatches(type, mediaType))) {
          return `${where}: content type ${mediaType ?? '(none)'} not declared (declared: ${declared.join(', ') || 'no body'})`;
        }
      }
      const codes = response['x-cms-error-codes'] as string[] | undefined;
      if (answer.status >= 400 && codes) {
        let code: unknown;
        try {
          code = JSON.parse(answer.text)?.error?.code;
        } catch {}
        if (typeof code !== 'string' || !codes.includes(code)) {
          return `${where}: code ${String(code)} not among ${codes.join(', ')}`;
        }
      }
      return null;
    },
  };
}

/** `*\/*`, `image/*` and exact types, as OpenAPI media type ranges match. */
function mediaTypeMatches(declared: string, actual: string | null): boolean {
  if (declared === '*/*') return true;
  if (actual === null) return false;
  if (declared.endsWith('/*')) return actual.startsWith(declared.slice(0, -1));
  return declared === actual;
}
