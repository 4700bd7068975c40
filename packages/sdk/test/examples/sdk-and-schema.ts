// What a site imports: the client from @cms/sdk, the schema DSL from @cms/core (its cms.config.ts).
export { defineType, field } from '@cms/core';
export { createClient } from '@cms/sdk';
