import type { MfaStatus } from '@cms/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { mfa } from '../api/index.js';
import { href } from '../routing/navigation.js';
import { AuthCard } from '../ui/auth-card.js';
import { AuthForm, useAuthSubmit } from '../ui/auth-form.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorNotice, Loading, Notice } from '../ui/notice.js';
import { OneTimeCodeForm } from '../ui/one-time-code-form.js';
import { TextField } from '../ui/text-field.js';
import { PasswordSection } from './password-section.js';

const MFA_STATUS = ['mfa-status'] as const;

type Step =
  | { kind: 'status' }
  | { kind: 'enrolling'; secret: string; otpauthUri: string }
  | { kind: 'codes'; recoveryCodes: string[]; renewed: boolean };

/**
 * The signed-in user's own password (PasswordSection) and second factor (docs/access-control.md "Second
 * factor"): set it up (secret and otpauth URI, a first code, the recovery codes shown once), replace the
 * recovery codes (proven by a current code; the new ones shown once) or turn it off with the password. Also
 * what the Studio shows instead of itself while `CMS_REQUIRE_MFA=admins` blocks an administrator.
 */
export function AccountSecurityPage() {
  const client = useQueryClient();
  // Read afresh each time the page opens (gcTime 0: whoever signs in next never sees this one's);
  // each change answers with the new status, which replaces it. A refusal leaves "Loading…".
  const status = useQuery({ queryKey: MFA_STATUS, queryFn: () => mfa.status(), gcTime: 0 }).data ?? null;
  const setStatus = (next: MfaStatus) => client.setQueryData(MFA_STATUS, next);
  const [step, setStep] = useState<Step>({ kind: 'status' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [renewCode, setRenewCode] = useState('');
  const { busy, error, submit } = useAuthSubmit();
  const renewal = useAuthSubmit();

  if (step.kind === 'codes') {
    const text = step.recoveryCodes.join('\n');
    return (
      <AuthCard title="Recovery codes">
        <Notice kind="warning">
          {step.renewed
            ? 'New recovery codes are ready; the old ones no longer work.'
            : 'Two-factor authentication is on.'}{' '}
          Keep these codes somewhere safe: each signs you in once if you lose your authenticator app. They are shown
          only now.
        </Notice>
        <ul aria-label="Recovery codes" className="recovery-codes">
          {step.recoveryCodes.map((recoveryCode) => (
            <li key={recoveryCode}>
              <code>{recoveryCode}</code>
            </li>
          ))}
        </ul>
        <CopyButton text={text} label="Copy recovery codes" confirm="button" />
        <button type="button" className="primary" onClick={() => window.location.assign(href('/'))}>
          Continue to the Studio
        </button>
      </AuthCard>
    );
  }

  if (step.kind === 'enrolling') {
    return (
      <AuthCard title="Set up two-factor authentication">
        <p>
          Add this account to your authenticator app: open the address below on the device, or type the secret key by
          hand. Then enter the six-digit code the app shows.
        </p>
        <p>
          <span className="muted">Setup address: </span>
          <code>{step.otpauthUri}</code>
        </p>
        <p>
          <span className="muted">Secret key: </span>
          <code>{step.secret}</code> <CopyButton text={step.secret} label="Copy key" confirm="beside" />
        </p>
        <OneTimeCodeForm
          label="Code from your app"
          name="code"
          inputMode="numeric"
          value={code}
          onChange={setCode}
          error={error}
          busy={busy}
          submitLabel="Turn on"
          busyLabel="Checking…"
          onSubmit={() =>
            submit(async () => {
              const confirmed = await mfa.confirm(code);
              setStatus(confirmed.status);
              setStep({ kind: 'codes', recoveryCodes: confirmed.recoveryCodes, renewed: false });
              return 'stay';
            })
          }
        />
      </AuthCard>
    );
  }

  if (!status) {
    return (
      <AuthCard title="Account security">
        <h2>Two-factor authentication</h2>
        <Loading />
      </AuthCard>
    );
  }

  if (status.enabled) {
    return (
      <AuthCard title="Account security">
        <PasswordSection />
        <h2>Two-factor authentication</h2>
        <Notice kind="success">
          On since {new Date(status.enabledAt ?? '').toLocaleDateString()}; {status.recoveryCodesLeft} recovery codes
          left.
        </Notice>
        {status.required ? <p>This server requires it for administrators.</p> : null}
        <h3>New recovery codes</h3>
        <p>Replace all your recovery codes with ten new ones, for example when you have used most of them.</p>
        <OneTimeCodeForm
          label="Code from your app or a recovery code"
          name="renew-code"
          value={renewCode}
          onChange={setRenewCode}
          error={renewal.error}
          busy={renewal.busy}
          submitLabel="New recovery codes"
          busyLabel="Checking…"
          onSubmit={() =>
            renewal.submit(async () => {
              const renewed = await mfa.renewRecoveryCodes(renewCode);
              setStatus(renewed.status);
              setRenewCode('');
              setStep({ kind: 'codes', recoveryCodes: renewed.recoveryCodes, renewed: true });
              return 'stay';
            })
          }
        />
        <h3>Turn off</h3>
        <AuthForm
          error={error}
          busy={busy}
          disabled={!password}
          submitLabel="Turn off"
          busyLabel="Turning off…"
          onSubmit={() =>
            submit(async () => {
              setStatus(await mfa.disable(password));
              setPassword('');
              return 'stay';
            })
          }
        >
          <TextField
            label="Current password"
            type="password"
            name="current-password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </AuthForm>
      </AuthCard>
    );
  }

  // While CMS_REQUIRE_MFA=admins blocks this administrator, only the second factor can be set up.
  return (
    <AuthCard title="Account security">
      {status.required ? null : <PasswordSection />}
      <h2>Two-factor authentication</h2>
      {status.required ? (
        <Notice kind="warning">
          This server requires administrators to use two-factor authentication. Set it up to continue.
        </Notice>
      ) : (
        <p>Ask for a code from an authenticator app each time you sign in with your password.</p>
      )}
      <ErrorNotice error={error} />
      <button
        type="button"
        className="primary"
        disabled={busy}
        onClick={() =>
          submit(async () => {
            const started = await mfa.enrol();
            setStep({ kind: 'enrolling', ...started });
            return 'stay';
          })
        }
      >
        Set up two-factor authentication
      </button>
    </AuthCard>
  );
}
