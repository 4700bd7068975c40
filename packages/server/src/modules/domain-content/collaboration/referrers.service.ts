import { notFound, type Page } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import {
  findDocumentType,
  listReferrerRows,
  type ReferrerRow,
} from '../../../storage/repositories/referrers.repository.js';
import type { SchemaReader } from '../schema/schema-reader.js';
import { referrerProbes } from './referrer-probes.js';

/** `GET /content/{documentId}/referrers`. */
export interface ReferrersService {
  list(
    ctx: EnvironmentContext,
    input: { documentId: string; limit: number; offset: number },
  ): Promise<Page<ReferrerRow>>;
}

/**
 * The live documents whose reference fields (draft or published) hold a document's id: what a
 * delete would leave pointing at nothing. The document itself may be deleted (its referrers are
 * then the broken ones); a document of another environment or project is NOT_FOUND.
 */
export function createReferrersService(deps: { db: Queryable; schemas: SchemaReader }): ReferrersService {
  const { db, schemas } = deps;
  return {
    async list(ctx, input) {
      const { target } = ctx;
      const documentId = input.documentId.toLowerCase();
      const type = await findDocumentType(db, target, documentId);
      if (type === null) throw notFound(`Document ${input.documentId}`);
      const schema = await schemas.find(target);
      const probes = referrerProbes(schema?.types.values() ?? [], type, documentId);
      const page = { limit: input.limit, offset: input.offset };
      const { rows, total } = await listReferrerRows(db, target, documentId, probes, page);
      return { items: rows, total, ...page };
    },
  };
}
