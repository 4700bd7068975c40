/** Wire shapes the Studio reads (spec/interface.md "Resources and their fields"). */
import type { Document, VersionEntry, VersionSnapshot } from '@cms/core';

export interface Capabilities {
  'schema.read': boolean;
  'schema.write': boolean;
  'content.read': boolean;
  'content.readDraft': boolean;
  'content.write': boolean;
  'content.publish': boolean;
  'content.delete': boolean;
  'users.manage': boolean;
  'settings.manage': boolean;
}

export interface Principal {
  principalType: 'apiKey' | 'user';
  principalId: string;
  label?: string;
  email?: string;
  role?: string;
  capabilities: Capabilities;
}

export interface Project {
  slug: string;
  name: string;
  createdAt: string;
}

export interface Environment {
  name: string;
  extends: string | null;
  isDefault: boolean;
  createdAt: string;
}

export interface Bootstrap {
  me: Principal;
  projects: Project[];
  environments: Environment[];
  modules: unknown[];
  extensions: unknown[];
}

export interface Session {
  id: string;
  userId: string;
  email: string;
  issuedAt: string;
  expiresAt: string;
}

export interface AuthProvider {
  slug: string;
  kind: 'oidc' | 'saml';
  label: string;
}

export interface ResolveError {
  code: string;
  message: string;
  ref: { documentId: string; type: string };
}

/** A document as the API answers it (core's wire shape), with its resolve errors typed. */
export type ContentDocument = Omit<Document, 'resolveErrors'> & { resolveErrors: Record<string, ResolveError> };

export type { VersionEntry, VersionSnapshot };

export interface VariantEntry {
  documentId: string;
  locale: string;
  path: string;
  version: number;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  updatedAt: string;
}

export interface OverviewCount {
  type: string;
  total: number;
  published: number;
  draft: number;
  deleted: number;
}

export interface SearchHit {
  documentId: string;
  type: string;
  path: string;
  locale: string;
  title?: string | null;
  [key: string]: unknown;
}

export const DEFAULT_LOCALE = '__cms_default__';
