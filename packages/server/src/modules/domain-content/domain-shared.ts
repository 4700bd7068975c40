import type { BulkStatistics } from '../../storage/bulk-statistics.js';
import type { Outbox } from './outbox.js';
import type { SchemaReader } from './schema/schema-reader.js';

/** What the areas of `domain.content` share. */
export interface DomainShared {
  outbox: Outbox;
  schemas: SchemaReader;
  /** Analyzes the tables bulk work wrote to, once it pauses. */
  statistics: BulkStatistics;
}
