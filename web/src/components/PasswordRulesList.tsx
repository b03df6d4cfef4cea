import { PASSWORD_RULES, unmetPasswordRules } from '../../../api/contracts/account-rules';

/** The live list under a new-password field: the rules the server enforces that this password does not meet yet, shrinking as the user types. */
export function PasswordRulesList({ password }: { password: string }) {
  const unmet = unmetPasswordRules(password);
  if (unmet.length === 0) {
    return <p className="password-rules password-rules--met">All {PASSWORD_RULES.length} password rules met</p>;
  }
  return (
    <div className="password-rules">
      <span className="field__hint">Still needed:</span>
      <ul aria-label="Password rules not yet met">
        {unmet.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
    </div>
  );
}
