import type { Outbox } from './outbox.js';

/** What the areas of `domain.content` share: one outbox writer. */
export interface DomainShared {
  outbox: Outbox;
}
