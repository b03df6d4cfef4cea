import { zodResolver } from '@hookform/resolvers/zod';
import { useMachine } from '@xstate/react';
import { useId, useMemo, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../components/Banner';
import { FormField } from '../../components/FormField';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { Spinner } from '../../components/Spinner';
import type { UserProfile } from '../../../../api/contracts/accounts';
import { useAuth, useAuthActions } from '../../lib/auth/session';
import { EmailVerificationBanner } from './EmailVerificationBanner';
import { profileMachine } from './profile-machine';
import { emailChangeSchema, passwordChangeSchema, profileSchema, type EmailChangeForm, type PasswordChangeForm, type ProfileForm } from './schemas';
import { securityMachine } from './security-machine';
import { Tabs } from './Tabs';
import './account.css';

const TABS = ['Profile Information', 'Security & Privacy'] as const;
type Tab = (typeof TABS)[number];

const memberSince = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/**
 * The account-settings page, at /account/settings and /profile alike: tabs
 * Profile Information and Security & Privacy; `?tab=security` opens the second.
 */
export function AccountSettingsPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'security' ? 'Security & Privacy' : 'Profile Information';
  // The guard renders this page only when signed in.
  if (!user) return <Spinner label="Loading your account" />;
  return (
    <div className="account-page account-page--narrow">
      <header className="account-page__head">
        <h1>Account settings</h1>
        <p className="muted">Your details, your sign-in email and your password.</p>
      </header>
      <EmailVerificationBanner />
      <Tabs
        tabs={TABS}
        active={tab}
        label="Account settings"
        onSelect={(next) => setParams(next === 'Security & Privacy' ? { tab: 'security' } : {}, { replace: true })}
      >
        {tab === 'Profile Information' ? <ProfileSection userId={user.id} /> : <SecuritySection user={user} />}
      </Tabs>
    </div>
  );
}

function ProfileSection({ userId }: { userId: string }) {
  const auth = useAuthActions();
  const machine = useMemo(() => profileMachine.provide({ actions: { userChanged: (_, { user }) => auth.userUpdated(user) } }), [auth]);
  const [snapshot, send] = useMachine(machine, { input: { userId } });
  const { profile, error, notice } = snapshot.context;

  if (snapshot.matches('loading')) return <Spinner label="Loading your profile" />;
  if (snapshot.matches('loadFailed') || !profile) {
    return (
      <div>
        <Banner kind="error">{error ?? 'Failed to load profile'}</Banner>
        <button type="button" className="button" onClick={() => send({ type: 'RETRY' })}>
          Try Again
        </button>
      </div>
    );
  }
  const editing = snapshot.matches('editing') || snapshot.matches('saving');
  return (
    <section className="card settings-card" aria-labelledby="profile-heading">
      <div className="settings-card__head">
        <h2 id="profile-heading">Profile Information</h2>
        {!editing && (
          <button type="button" className="button" onClick={() => send({ type: 'EDIT' })}>
            Edit Profile
          </button>
        )}
      </div>
      {notice && (
        <Banner kind="success" onDismiss={() => send({ type: 'DISMISS' })}>
          {notice}
        </Banner>
      )}
      {error && <Banner kind="error">{error}</Banner>}
      {editing ? (
        <ProfileEditor profile={profile} saving={snapshot.matches('saving')} onSave={(values) => send({ type: 'SAVE', values })} onCancel={() => send({ type: 'CANCEL' })} />
      ) : (
        <dl className="details">
          <Detail term="First name" value={profile.firstName} />
          <Detail term="Last name" value={profile.lastName} />
          <Detail
            term="Email"
            value={
              <>
                {profile.email} <EmailState verified={profile.emailVerified} />
              </>
            }
          />
          {profile.pendingEmail && <Detail term="Pending email change" value={`${profile.pendingEmail}, once the link sent there is followed`} />}
          <Detail term="Phone" value={profile.phone ?? 'Not provided'} />
          <Detail term="Member Since" value={memberSince.format(new Date(profile.createdAt))} />
        </dl>
      )}
      {!editing && <Preferences profile={profile} />}
    </section>
  );
}

function Detail({ term, value }: { term: string; value: ReactNode }) {
  return (
    <div className="details__row">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Said in words, not by colour alone. */
function EmailState({ verified }: { verified: boolean }) {
  return <span className={`badge email-state email-state--${verified ? 'verified' : 'unverified'}`}>{verified ? 'Verified' : 'Not verified'}</span>;
}

// No label says "email": the profile form's one field of that name stays the only one.
const MARKETING_LABEL = 'Marketing opt-in: news and featured auctions';
const TRANSACTIONAL_LABEL = 'Transactional opt-out: no outbid or ending-soon messages';
const PREFERENCES_HINT = 'Opting out stops the outbid and ending-soon emails; those notices still appear in the app. Account emails (password and address changes) are always sent.';

/** The email preferences as saved; Edit Profile changes them. */
function Preferences({ profile }: { profile: UserProfile }) {
  const hintId = useId();
  return (
    <fieldset className="preferences" disabled aria-describedby={hintId}>
      <legend>Email preferences</legend>
      <label>
        <input type="checkbox" checked={profile.marketingOptIn} readOnly /> {MARKETING_LABEL}
      </label>
      <label>
        <input type="checkbox" checked={profile.transactionalOptOut} readOnly /> {TRANSACTIONAL_LABEL}
      </label>
      <p id={hintId} className="field__hint">
        {PREFERENCES_HINT}
      </p>
    </fieldset>
  );
}

function ProfileEditor({ profile, saving, onSave, onCancel }: { profile: UserProfile; saving: boolean; onSave: (values: ProfileForm) => void; onCancel: () => void }) {
  // Built from the saved profile each time edit mode opens, so Cancel (which unmounts it) restores.
  const { register, handleSubmit, formState } = useForm<ProfileForm>({
    resolver: zodResolver(profileSchema),
    defaultValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone ?? '',
      marketingOptIn: profile.marketingOptIn,
      transactionalOptOut: profile.transactionalOptOut,
    },
  });
  const hintId = useId();
  return (
    <form onSubmit={handleSubmit(onSave)} noValidate aria-label="Edit profile">
      <div className="form-pair">
        <FormField label="First name" autoComplete="given-name" registration={register('firstName')} error={formState.errors.firstName?.message} />
        <FormField label="Last name" autoComplete="family-name" registration={register('lastName')} error={formState.errors.lastName?.message} />
      </div>
      <FormField label="Phone" type="tel" autoComplete="tel" registration={register('phone')} error={formState.errors.phone?.message} />
      <div className="field">
        <label htmlFor="profile-email">Email</label>
        <input id="profile-email" className="input" value={profile.email} readOnly aria-describedby="profile-email-hint" />
        <span id="profile-email-hint" className="field__hint">
          Change your email under Security & Privacy.
        </span>
      </div>
      <fieldset className="preferences preferences--editing" aria-describedby={hintId}>
        <legend>Email preferences</legend>
        <label>
          <input type="checkbox" {...register('marketingOptIn')} /> {MARKETING_LABEL}
        </label>
        <label>
          <input type="checkbox" {...register('transactionalOptOut')} /> {TRANSACTIONAL_LABEL}
        </label>
        <p id={hintId} className="field__hint">
          {PREFERENCES_HINT}
        </p>
      </fieldset>
      <FormActions saving={saving} label="Save" savingLabel="Saving…" onCancel={onCancel} />
    </form>
  );
}

function SecuritySection({ user }: { user: UserProfile }) {
  const navigate = useNavigate();
  const auth = useAuthActions();
  const machine = useMemo(
    () =>
      securityMachine.provide({
        actions: {
          userChanged: (_, { user: changed }) => auth.userUpdated(changed),
          signOut: () => {
            void auth.signOut().then(() => navigate('/login', { replace: true }));
          },
        },
      }),
    [auth, navigate],
  );
  const [snapshot, send] = useMachine(machine, { input: { userId: user.id } });
  const { error, notice } = snapshot.context;
  const done = snapshot.matches('passwordChanged') || snapshot.matches('signedOut');

  return (
    <div className="settings-stack">
      {notice && <Banner kind="success">{notice}</Banner>}
      {error && (
        <Banner kind="error" onDismiss={() => send({ type: 'DISMISS' })}>
          {error}
        </Banner>
      )}
      <section className="card settings-card" aria-labelledby="email-heading">
        <div className="settings-card__head">
          <div>
            <h2 id="email-heading">Email address</h2>
            <p className="muted settings-card__current">{user.email}</p>
            {user.pendingEmail && (
              <p className="settings-card__current">
                Changing to <strong>{user.pendingEmail}</strong>: follow the link sent there to finish.
              </p>
            )}
          </div>
          {!snapshot.matches('email') && (
            <button type="button" className="button" onClick={() => send({ type: 'OPEN_EMAIL' })} disabled={done}>
              Change Email
            </button>
          )}
        </div>
        {snapshot.matches('email') && (
          <EmailChangeEditor
            currentEmail={user.email}
            saving={snapshot.matches({ email: 'saving' })}
            onSubmit={(newEmail) => send({ type: 'SUBMIT_EMAIL', newEmail })}
            onCancel={() => send({ type: 'CLOSE' })}
          />
        )}
      </section>
      <section className="card settings-card" aria-labelledby="password-heading">
        <div className="settings-card__head">
          <div>
            <h2 id="password-heading">Password</h2>
            <p className="muted settings-card__current">Changing it signs you out everywhere.</p>
          </div>
          {!snapshot.matches('password') && (
            <button type="button" className="button" onClick={() => send({ type: 'OPEN_PASSWORD' })} disabled={done}>
              Change Password
            </button>
          )}
        </div>
        {snapshot.matches('password') && (
          <PasswordChangeEditor
            saving={snapshot.matches({ password: 'saving' })}
            onSubmit={(currentPassword, newPassword) => send({ type: 'SUBMIT_PASSWORD', currentPassword, newPassword })}
            onCancel={() => send({ type: 'CLOSE' })}
          />
        )}
      </section>
    </div>
  );
}

function EmailChangeEditor({ currentEmail, saving, onSubmit, onCancel }: { currentEmail: string; saving: boolean; onSubmit: (email: string) => void; onCancel: () => void }) {
  const schema = useMemo(() => emailChangeSchema(currentEmail), [currentEmail]);
  const { register, handleSubmit, formState } = useForm<EmailChangeForm>({ resolver: zodResolver(schema), defaultValues: { newEmail: '', confirmEmail: '' } });
  return (
    <form onSubmit={handleSubmit(({ newEmail }) => onSubmit(newEmail))} noValidate aria-label="Change email">
      <FormField label="New email" type="email" autoComplete="email" registration={register('newEmail')} error={formState.errors.newEmail?.message} />
      <FormField label="Confirm new email" type="email" autoComplete="email" registration={register('confirmEmail')} error={formState.errors.confirmEmail?.message} />
      <FormActions saving={saving} label="Update Email" savingLabel="Updating…" onCancel={onCancel} />
    </form>
  );
}

function PasswordChangeEditor({ saving, onSubmit, onCancel }: { saving: boolean; onSubmit: (current: string, next: string) => void; onCancel: () => void }) {
  const { register, handleSubmit, formState, control } = useForm<PasswordChangeForm>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const newPassword = useWatch({ control, name: 'newPassword' });
  return (
    <form onSubmit={handleSubmit(({ currentPassword, newPassword }) => onSubmit(currentPassword, newPassword))} noValidate aria-label="Change password">
      <FormField label="Current password" type="password" autoComplete="current-password" registration={register('currentPassword')} error={formState.errors.currentPassword?.message} />
      <NewPasswordFields
        password={newPassword}
        registration={{ newPassword: register('newPassword'), confirmPassword: register('confirmPassword') }}
        errors={{ newPassword: formState.errors.newPassword?.message, confirmPassword: formState.errors.confirmPassword?.message }}
      />
      <FormActions saving={saving} label="Update Password" savingLabel="Updating…" onCancel={onCancel} />
    </form>
  );
}

/** Submit and Cancel under each editor; both wait while a change is being saved. */
function FormActions({ saving, label, savingLabel, onCancel }: { saving: boolean; label: string; savingLabel: string; onCancel: () => void }) {
  return (
    <div className="form-actions">
      <button type="submit" className="button button--primary" disabled={saving}>
        {saving ? savingLabel : label}
      </button>
      <button type="button" className="button" onClick={onCancel} disabled={saving}>
        Cancel
      </button>
    </div>
  );
}
