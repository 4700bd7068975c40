import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/** A signing pair of a test identity provider. */
export interface TestIdpKeys {
  key: string;
  cert: string;
}

/** Generates an RSA signing pair with a self-signed certificate, as an IdP publishes one. */
export async function generateIdpKeys(commonName = 'test-idp'): Promise<TestIdpKeys> {
  const pair = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { key: pair.private, cert: pair.cert };
}

/** What goes into one assertion; every field can be bent to test a refusal. */
export interface AssertionFields {
  issuer: string;
  email: string;
  audience: string;
  recipient: string;
  inResponseTo: string;
  notBefore: Date;
  notOnOrAfter: Date;
  assertionId?: string;
}

const NS = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';

function iso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An unsigned assertion element. */
export function assertionXml(fields: AssertionFields): string {
  const id = fields.assertionId ?? `_a${randomBytes(16).toString('hex')}`;
  const now = iso(new Date());
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${now}">` +
    `<saml:Issuer>${fields.issuer}</saml:Issuer>` +
    '<saml:Subject>' +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${fields.email}</saml:NameID>` +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
    `<saml:SubjectConfirmationData InResponseTo="${fields.inResponseTo}" NotOnOrAfter="${iso(fields.notOnOrAfter)}" Recipient="${fields.recipient}"/>` +
    '</saml:SubjectConfirmation>' +
    '</saml:Subject>' +
    `<saml:Conditions NotBefore="${iso(fields.notBefore)}" NotOnOrAfter="${iso(fields.notOnOrAfter)}">` +
    `<saml:AudienceRestriction><saml:Audience>${fields.audience}</saml:Audience></saml:AudienceRestriction>` +
    '</saml:Conditions>' +
    `<saml:AuthnStatement AuthnInstant="${now}" SessionIndex="_s${randomBytes(8).toString('hex')}">` +
    '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext>' +
    '</saml:AuthnStatement>' +
    '</saml:Assertion>'
  );
}

/** Signs the assertion element (enveloped, exclusive C14N, RSA-SHA256), the signature after its Issuer. */
export function signAssertion(xml: string, keys: TestIdpKeys): string {
  const signer = new SignedXml({
    privateKey: keys.key,
    publicCert: keys.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: "/*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: "/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return signer.getSignedXml();
}

/** Wraps assertion XML (signed or not) in a Response; `inner` lets a test put anything inside. */
export function responseXml(
  fields: { issuer: string; destination: string; inResponseTo: string },
  inner: string,
): string {
  return (
    `<samlp:Response ${NS} ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(new Date())}" ` +
    `Destination="${fields.destination}" InResponseTo="${fields.inResponseTo}">` +
    `<saml:Issuer>${fields.issuer}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    inner +
    '</samlp:Response>'
  );
}

/** The AuthnRequest in an HTTP-Redirect address: its XML and the raw query parts. */
export function readRedirect(redirectUrl: string): {
  xml: string;
  id: string;
  signedPart: string;
  signature: string;
  sigAlg: string;
} {
  const url = new URL(redirectUrl);
  const query = url.search.slice(1);
  const signatureAt = query.indexOf('&Signature=');
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') as string, 'base64')).toString('utf8');
  return {
    xml,
    id: /\sID="([^"]+)"/.exec(xml)?.[1] as string,
    signedPart: signatureAt === -1 ? query : query.slice(0, signatureAt),
    signature: url.searchParams.get('Signature') ?? '',
    sigAlg: url.searchParams.get('SigAlg') ?? '',
  };
}
